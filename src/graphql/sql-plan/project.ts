import { getNamedType, GraphQLObjectType, type FieldNode } from 'graphql';
import { walletsOfProject } from '../../domain/wallets/wallet.repository.js';
import { connectionSql } from './connection.js';
import { unplannable, type Fields, type PlanContext } from './plan-context.js';
import { isoTimeSql, jsonValueSql } from './sql.js';
import { walletJoins, walletSql } from './wallet.js';
import { walletGroupsConnection, walletGroupsSql } from './wallet-group.js';

export function projectSql(ctx: PlanContext, p: string, fields: Fields): string {
  const type = ctx.type('Project');
  return ctx.object(type, fields, (name, nodes) => {
    switch (name) {
      case 'id':
        return jsonValueSql(`${p}.id::text`);
      case 'name':
        return jsonValueSql(`${p}.name`);
      case 'type':
        return jsonValueSql(`${p}.type`);
      case 'assetId':
        return jsonValueSql(`${p}.asset_id`);
      case 'owner':
        return jsonValueSql(`${p}.owner_id`);
      case 'supportExchangeRate':
        return jsonValueSql(`${p}.support_exchange_rate`);
      case 'createdAt':
        return jsonValueSql(isoTimeSql(`${p}.created_at`));
      case 'updatedAt':
        return jsonValueSql(isoTimeSql(`${p}.updated_at`));
      case 'wallets':
        return walletsSql(ctx, p, ctx.args(type, nodes), getNamedType(type.getFields().wallets.type) as GraphQLObjectType, nodes);
      case 'walletGroups':
        return walletGroupsSql(ctx, p, ctx.args(type, nodes), walletGroupsConnection(ctx), nodes);
      default:
        return unplannable();
    }
  });
}

/** A page of project `p`'s wallets, as Project.wallets and Query.wallets read it (walletsOf). */
export function walletsSql(ctx: PlanContext, p: string, args: Record<string, unknown>, connection: GraphQLObjectType, nodes: readonly FieldNode[]): string {
  const first = ctx.first(args.first);
  const after = ctx.cursor(args.after);
  const type = args.type === undefined || args.type === null ? 'NULL::text' : ctx.param(args.type, 'text');
  const afterSeq = after === null ? 'NULL::bigint' : ctx.param(after, 'bigint');
  const w = ctx.alias('w');
  return connectionSql(ctx, connection, nodes, {
    rows: `SELECT w.*, row_number() OVER (ORDER BY w.seq) AS n FROM (
             SELECT * FROM wallets w WHERE ${walletsOfProject(`${p}.id`, type)} AND (${afterSeq} IS NULL OR w.seq > ${afterSeq})
              ORDER BY w.seq LIMIT ${first + 1}) w`,
    row: w,
    joins: walletJoins(w),
    first,
    hasPreviousPage: after !== null,
    newestFirst: false,
    node: (fields) => walletSql(ctx, w, fields),
    totalCount: `(SELECT count(*) FROM wallets w WHERE ${walletsOfProject(`${p}.id`, type)})`,
  });
}
