import { getNamedType, GraphQLObjectType } from 'graphql';
import { effectiveHeld, pendingIncoming, projectCurrencies } from '../../domain/ledger/ledger.sql.js';
import { minorToDecimalSql } from '../../domain/money.js';
import { unplannable, type Fields, type PlanContext } from './plan-context.js';
import { isoTimeSql, jsonArraySql, jsonPlainStringSql, jsonTextSql, jsonValueSql } from './sql.js';
import { transactionsSql } from './transactions.js';

/**
 * What a FROM clause that yields wallet rows `w` adds after them for walletSql: the currencies of
 * the wallet's project, which its balances list. A LATERAL join, so that over the wallets of a
 * page or of `_entities` PostgreSQL computes it once per project (Memoize), not once per wallet.
 */
export const walletJoins = (w: string): string => `LEFT JOIN LATERAL (${projectCurrencies(`${w}.project_id`)}) ${currenciesOf(w)} ON true`;

const currenciesOf = (w: string): string => `${w}_currencies`;

/** A Wallet of row alias `w` (joined with walletJoins), with its balances and its recent transactions. */
export function walletSql(ctx: PlanContext, w: string, fields: Fields): string {
  const type = ctx.type('Wallet');
  return ctx.object(type, fields, (name, nodes) => {
    switch (name) {
      // the wallet's columns are NOT NULL: plain strings where no escaping is needed (sql.ts)
      case 'id':
        return jsonPlainStringSql(`${w}.id`);
      case 'projectId':
        return jsonPlainStringSql(`${w}.project_id`);
      case 'address':
        return jsonTextSql(`${w}.address`);
      case 'type':
      case 'status':
        return ctx.enumJson(type, name, `${w}.${name}`);
      case 'createdAt':
        return jsonPlainStringSql(isoTimeSql(`${w}.created_at`));
      case 'updatedAt':
        return jsonPlainStringSql(isoTimeSql(`${w}.updated_at`));
      case 'balances':
        ctx.present(ctx.args(type, nodes));
        return balancesSql(ctx, w, ctx.subfields('Balance', nodes));
      case 'transactions':
        return transactionsSql(ctx, w, ctx.present(ctx.args(type, nodes)), getNamedType(type.getFields().transactions.type) as GraphQLObjectType, nodes);
      default:
        return unplannable();
    }
  });
}

/**
 * Wallet.balances: one entry per currency of the wallet's project (walletJoins), in currency
 * order, zero included, each with the wallet's balance row when it has one (HistoryRepository.balances).
 */
export function balancesSql(ctx: PlanContext, w: string, fields: Fields): string {
  const balance = ctx.object(ctx.type('Balance'), fields, (name) => {
    switch (name) {
      case 'account':
        return jsonTextSql(`${w}.address`);
      case 'currency':
        return jsonTextSql('c.symbol');
      case 'assetId':
        return jsonPlainStringSql('c.id');
      case 'balance':
        return jsonPlainStringSql(minorToDecimalSql('coalesce(b.amount, 0)', 'c.fractions'));
      // held and available as HistoryRepository.balances computes them (effectiveHeld: expired holds no longer count)
      case 'held':
        return jsonValueSql(minorToDecimalSql(`coalesce(${effectiveHeld('b')}, 0)`, 'c.fractions'));
      case 'available':
        return jsonValueSql(minorToDecimalSql(`coalesce(b.amount - ${effectiveHeld('b')} + b.credit_limit, 0)`, 'c.fractions'));
      case 'creditLimit':
        return jsonValueSql(minorToDecimalSql('coalesce(b.credit_limit, 0)', 'c.fractions'));
      case 'incoming': // pending holds to the wallet (CONTRACT §26), as HistoryRepository.balances reads it
        return jsonValueSql(minorToDecimalSql(`coalesce(${pendingIncoming(`${w}.project_id`, `${w}.id`, 'c.id')}, 0)`, 'c.fractions'));
      default:
        return unplannable();
    }
  });
  const currencies = currenciesOf(w);
  return `(SELECT ${jsonArraySql(balance, 'c.n')}
             FROM unnest(${currencies}.ids, ${currencies}.symbols, ${currencies}.fractions) WITH ORDINALITY AS c (id, symbol, fractions, n)
             LEFT JOIN balances b ON b.wallet_id = ${w}.id AND b.asset_id = c.id)`;
}
