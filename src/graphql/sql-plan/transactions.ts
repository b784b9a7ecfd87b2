import { GraphQLObjectType, type FieldNode } from 'graphql';
import { balanceAfter, receiverAddress, recentOfWallet, transactionCountOf } from '../../domain/ledger/ledger.sql.js';
import { MINT_ADDRESS } from '../../domain/ledger/ledger.types.js';
import { minorToDecimalSql } from '../../domain/money.js';
import { connectionSql } from './connection.js';
import { unplannable, type PlanContext } from './plan-context.js';
import { isoTimeSql, jsonValueSql, literalSql } from './sql.js';

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
          case 'id':
            return jsonValueSql('t.id');
          case 'projectId':
            return jsonValueSql('t.project_id::text');
          case 'amount':
            return jsonValueSql(minorToDecimalSql('t.amount', 'a.fractions'));
          case 'currency':
            return jsonValueSql('a.symbol');
          case 'from':
            return jsonValueSql(`coalesce((SELECT wf.address FROM wallets wf WHERE wf.id = t.from_wallet_id), ${literalSql(MINT_ADDRESS)})`);
          case 'to':
            return jsonValueSql(receiverAddress('(SELECT wt.address FROM wallets wt WHERE wt.id = t.to_wallet_id)'));
          case 'reverses':
            return jsonValueSql('t.reverses');
          case 'reversedAmount':
            return jsonValueSql(minorToDecimalSql('t.reversed_amount', 'a.fractions'));
          case 'reference':
            return jsonValueSql('t.reference');
          // metadata (json) stays with the resolvers: its text would have to match JSON.stringify's byte for byte
          case 'date':
            return jsonValueSql(isoTimeSql('t.created_at'));
          case 'balance':
            return jsonValueSql(minorToDecimalSql(balanceAfter(`${w}.id`), 'a.fractions'));
          default:
            return unplannable();
        }
      }),
    totalCount: transactionCountOf(`${w}.id`),
  });
}
