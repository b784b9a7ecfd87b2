import { getNamedType, GraphQLObjectType } from 'graphql';
import { CURRENCY_ORDER, effectiveHeld, PROJECT_CURRENCIES } from '../../domain/ledger/ledger.repository.js';
import { minorToDecimalSql } from '../../domain/money.js';
import { unplannable, type Fields, type PlanContext } from './plan-context.js';
import { isoTimeSql, jsonArraySql, jsonValueSql } from './sql.js';
import { transactionsSql } from './transactions.js';

/** A Wallet of row alias `w`, with its balances and its recent transactions. */
export function walletSql(ctx: PlanContext, w: string, fields: Fields): string {
  const type = ctx.type('Wallet');
  return ctx.object(type, fields, (name, nodes) => {
    switch (name) {
      case 'id':
        return jsonValueSql(`${w}.id`);
      case 'projectId':
        return jsonValueSql(`${w}.project_id::text`);
      case 'address':
        return jsonValueSql(`${w}.address`);
      case 'type':
      case 'status':
        return jsonValueSql(ctx.enumValue(type, name, `${w}.${name}`));
      case 'createdAt':
        return jsonValueSql(isoTimeSql(`${w}.created_at`));
      case 'updatedAt':
        return jsonValueSql(isoTimeSql(`${w}.updated_at`));
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

/** Wallet.balances: one entry per currency of the wallet's project, zero included (LedgerRepository.balances). */
export function balancesSql(ctx: PlanContext, w: string, fields: Fields): string {
  const balance = ctx.object(ctx.type('Balance'), fields, (name) => {
    switch (name) {
      case 'account':
        return jsonValueSql(`${w}.address`);
      case 'currency':
        return jsonValueSql('a.symbol');
      case 'assetId':
        return jsonValueSql('a.id');
      case 'balance':
        return jsonValueSql(minorToDecimalSql(`coalesce((SELECT b.amount FROM balances b WHERE b.wallet_id = ${w}.id AND b.asset_id = a.id), 0)`, 'a.fractions'));
      // held and available as LedgerRepository.balances computes them (effectiveHeld: expired holds no longer count)
      case 'held':
        return jsonValueSql(minorToDecimalSql(`coalesce((SELECT ${effectiveHeld('b')} FROM balances b WHERE b.wallet_id = ${w}.id AND b.asset_id = a.id), 0)`, 'a.fractions'));
      case 'available':
        return jsonValueSql(minorToDecimalSql(`coalesce((SELECT b.amount - ${effectiveHeld('b')} FROM balances b WHERE b.wallet_id = ${w}.id AND b.asset_id = a.id), 0)`, 'a.fractions'));
      default:
        return unplannable();
    }
  });
  return `(SELECT ${jsonArraySql(balance, CURRENCY_ORDER)}
             FROM projects p ${PROJECT_CURRENCIES}
            WHERE p.id = ${w}.project_id)`;
}
