import { getNamedType, GraphQLObjectType, type FieldNode } from 'graphql';
import { minorToDecimalSql } from '../../domain/money.js';
import { GROUP_CURRENCY_ORDER, groupHeldSql, groupSumsOf } from '../../domain/wallet-groups/wallet-group.sql.js';
import { UuidRule } from '../../domain/shared/ids.js';
import { connectionSql } from './connection.js';
import { unplannable, type Fields, type PlanContext } from './plan-context.js';
import { isoTimeSql, jsonArraySql, jsonPlainStringSql, jsonTextSql, literalSql } from './sql.js';

/**
 * Wallet groups (CONTRACT §29) in a plan: `project → walletGroups → balances + groups → balances`
 * at any depth, in the one statement. The sums are the stored running sums, read by primary key
 * (groupSumsOf, the repository's own fragment), so the statement's cost follows the number of
 * groups read, never the number of wallets in them. `metadata` (jsonb prints with spaces),
 * `parent`, `wallets` and balances `asOf` are the resolvers'.
 */
export function walletGroupSql(ctx: PlanContext, g: string, fields: Fields): string {
  const type = ctx.type('WalletGroup');
  return ctx.object(type, fields, (name, nodes) => {
    switch (name) {
      case 'id':
        return jsonPlainStringSql(`${g}.id`);
      case 'projectId':
        return jsonPlainStringSql(`${g}.project_id`);
      case 'name':
        return jsonTextSql(`${g}.name`);
      case 'createdAt':
        return jsonPlainStringSql(isoTimeSql(`${g}.created_at`));
      case 'balances':
        ctx.present(ctx.args(type, nodes));
        return groupBalancesSql(ctx, g, ctx.subfields('GroupBalance', nodes));
      case 'groups': {
        const c = ctx.alias('g');
        const child = walletGroupSql(ctx, c, ctx.subfields('WalletGroup', nodes));
        return `(SELECT ${jsonArraySql(child, `${c}.seq`)} FROM wallet_groups ${c} WHERE ${c}.project_id = ${g}.project_id AND ${c}.parent_id = ${g}.id)`;
      }
      default:
        return unplannable();
    }
  });
}

/** WalletGroup.balances: the group's stored sums, one per currency a wallet of its subtree holds, in currency order. */
function groupBalancesSql(ctx: PlanContext, g: string, fields: Fields): string {
  const held = groupHeldSql('s');
  const balance = ctx.object(ctx.type('GroupBalance'), fields, (name) => {
    switch (name) {
      case 'currency':
        return jsonTextSql('a.symbol');
      case 'assetId':
        return jsonPlainStringSql('a.id');
      case 'balance':
        return jsonPlainStringSql(minorToDecimalSql('s.amount', 'a.fractions'));
      case 'held':
        return jsonPlainStringSql(minorToDecimalSql(held, 'a.fractions'));
      case 'available':
        return jsonPlainStringSql(minorToDecimalSql(`s.amount - ${held}`, 'a.fractions'));
      case 'incoming':
        return literalSql('"0"');
      case 'wallets':
        return `(${g}.wallets)::text`;
      default:
        return unplannable();
    }
  });
  return `(SELECT ${jsonArraySql(balance, GROUP_CURRENCY_ORDER)} FROM ${groupSumsOf(g)})`;
}

/** Project.walletGroups: a page of project `p`'s roots (or of `parentId`'s children), as the resolver reads it (WalletGroupRepository.page). */
export function walletGroupsSql(ctx: PlanContext, p: string, args: Record<string, unknown>, connection: GraphQLObjectType, nodes: readonly FieldNode[]): string {
  const first = ctx.first(args.first);
  const after = ctx.cursor(args.after);
  if (args.parentId !== undefined && args.parentId !== null && !UuidRule.safeParse(args.parentId).success) unplannable();
  const parent = args.parentId === undefined || args.parentId === null ? 'NULL::uuid' : ctx.param(String(args.parentId).toLowerCase(), 'uuid');
  const afterSeq = after === null ? 'NULL::bigint' : ctx.param(after, 'bigint');
  const g = ctx.alias('g');
  const where = `g.project_id = ${p}.id AND ((${parent} IS NULL AND g.parent_id IS NULL) OR g.parent_id = ${parent})`;
  return connectionSql(ctx, connection, nodes, {
    rows: `SELECT g.*, row_number() OVER (ORDER BY g.seq) AS n FROM (
             SELECT * FROM wallet_groups g WHERE ${where} AND (${afterSeq} IS NULL OR g.seq > ${afterSeq})
              ORDER BY g.seq LIMIT ${first + 1}) g`,
    row: g,
    first,
    hasPreviousPage: after !== null,
    newestFirst: false,
    node: (fields) => walletGroupSql(ctx, g, fields),
    totalCount: `(SELECT count(*) FROM wallet_groups g WHERE ${where})`,
  });
}

export const walletGroupsConnection = (ctx: PlanContext): GraphQLObjectType => getNamedType(ctx.type('Project').getFields().walletGroups.type) as GraphQLObjectType;
