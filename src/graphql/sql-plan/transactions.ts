import { GraphQLObjectType, type FieldNode } from 'graphql';
import { balanceAfter, receiverAddress, recentOfWallet, transactionCountOf } from '../../domain/ledger/ledger.sql.js';
import { MINT_ADDRESS } from '../../domain/ledger/ledger.types.js';
import { minorToDecimalSql } from '../../domain/money.js';
import { connectionSql } from './connection.js';
import { unplannable, type PlanContext } from './plan-context.js';
import { isoTimeSql, jsonPlainStringSql, jsonTextSql, jsonValueSql, literalSql } from './sql.js';

/**
 * The address of wallet `walletId` (NULL when NULL). One side of every transaction in wallet
 * `w`'s history is `w` itself, whose row is at hand: only the other side is looked up (half the
 * primary-key look-ups of a page, bench/results/2026-11-27-reads-2.txt).
 */
const addressSql = (w: string, walletId: string, alias: string): string =>
  `CASE WHEN ${walletId} = ${w}.id THEN ${w}.address ELSE (SELECT ${alias}.address FROM wallets ${alias} WHERE ${alias}.id = ${walletId}) END`;

/** Wallet.transactions: the newest first, keyset-paged by `seq` (HistoryRepository.recent). */
export function transactionsSql(ctx: PlanContext, w: string, args: Record<string, unknown>, connection: GraphQLObjectType, nodes: readonly FieldNode[]): string {
  const first = ctx.first(args.first);
  const after = ctx.cursor(args.after);
  const beforeSeq = after === null ? 'NULL::bigint' : ctx.param(after, 'bigint');
  return connectionSql(ctx, connection, nodes, {
    rows: `SELECT t.*, row_number() OVER (ORDER BY t.seq DESC) AS n FROM (${recentOfWallet(`${w}.id`, beforeSeq, String(first + 1))}) t`,
    row: 't',
    joins: 'JOIN assets a ON a.id = t.asset_id',
    first,
    hasPreviousPage: after !== null,
    newestFirst: true,
    node: (fields) =>
      ctx.object(ctx.type('Transaction'), fields, (name) => {
        switch (name) {
          // NOT NULL columns: plain strings where no escaping is needed (sql.ts)
          case 'id':
            return jsonPlainStringSql('t.id');
          case 'projectId':
            return jsonPlainStringSql('t.project_id');
          case 'amount':
            return jsonPlainStringSql(minorToDecimalSql('t.amount', 'a.fractions'));
          case 'currency':
            return jsonTextSql('a.symbol');
          // never NULL (@mint, @expired stand in): escaped, without coalesce
          case 'from':
            return jsonTextSql(`coalesce(${addressSql(w, 't.from_wallet_id', 'wf')}, ${literalSql(MINT_ADDRESS)})`);
          case 'to':
            return jsonTextSql(receiverAddress(addressSql(w, 't.to_wallet_id', 'wt')));
          case 'reverses':
            return jsonValueSql('t.reverses');
          case 'reversedAmount':
            return jsonValueSql(minorToDecimalSql('t.reversed_amount', 'a.fractions'));
          case 'reference':
            return jsonValueSql('t.reference');
          // metadata (json) stays with the resolvers: its text would have to match JSON.stringify's byte for byte
          case 'date':
            return jsonPlainStringSql(isoTimeSql('t.created_at'));
          case 'balance':
            return jsonValueSql(minorToDecimalSql(balanceAfter(`${w}.id`), 'a.fractions'));
          default:
            return unplannable();
        }
      }),
    totalCount: transactionCountOf(`${w}.id`),
  });
}
