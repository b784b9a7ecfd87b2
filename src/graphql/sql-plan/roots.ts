import { getNamedType, GraphQLObjectType, type FieldNode } from 'graphql';
import { UuidRule } from '../../domain/shared/ids.js';
import { ownedBy } from '../../domain/ownership/ownership.sql.js';
import { unplannable, type PlanContext } from './plan-context.js';
import { projectSql, walletsSql } from './project.js';
import { jsonArraySql } from './sql.js';
import { walletJoins, walletSql } from './wallet.js';
import { walletGroupSql } from './wallet-group.js';

/** A UUID as PostgreSQL prints it (a wallet id; a UuidRule match too); others are left to the resolvers' own reading. */
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A root's JSON, and the condition that it exists (another owner's does not: the resolvers answer not_found). */
export function rootSql(ctx: PlanContext, name: string, nodes: readonly FieldNode[]): { exists: string; json: string } {
  const args = ctx.args(ctx.request.schema.getQueryType()!, nodes);
  const owner = ctx.owner();
  if (name === 'project' || name === 'wallets') {
    const p = ctx.alias('p');
    const id = ctx.param(ctx.projectId(name === 'project' ? args.id : args.projectId, name === 'project' ? 'id' : 'projectId'), 'int');
    const json =
      name === 'project'
        ? projectSql(ctx, p, ctx.subfields('Project', nodes))
        : walletsSql(ctx, p, args, getNamedType(ctx.request.schema.getQueryType()!.getFields().wallets.type) as GraphQLObjectType, nodes);
    return {
      exists: `EXISTS (SELECT 1 FROM projects o WHERE o.id = ${id} AND ${ownedBy('o', owner)})`,
      json: `(SELECT ${json} FROM projects ${p} WHERE ${p}.id = ${id} AND ${ownedBy(p, owner)})`,
    };
  }
  if (name === 'wallet') {
    const w = ctx.alias('w');
    if (!UuidRule.safeParse(args.id).success) unplannable();
    const id = ctx.param(args.id, 'uuid');
    return {
      exists: `EXISTS (SELECT 1 FROM wallets o WHERE o.id = ${id} AND ${ownedBy('o', owner)})`,
      json: `(SELECT ${walletSql(ctx, w, ctx.subfields('Wallet', nodes))} FROM wallets ${w} ${walletJoins(w)} WHERE ${w}.id = ${id} AND ${ownedBy(w, owner)})`,
    };
  }
  if (name === 'walletGroup') {
    const g = ctx.alias('g');
    if (!UuidRule.safeParse(args.id).success) unplannable();
    const id = ctx.param(String(args.id).toLowerCase(), 'uuid');
    const owned = (row: string) => `EXISTS (SELECT 1 FROM projects o WHERE o.id = ${row}.project_id AND ${ownedBy('o', owner)})`;
    return {
      exists: `EXISTS (SELECT 1 FROM wallet_groups x WHERE x.id = ${id} AND ${owned('x')})`,
      json: `(SELECT ${walletGroupSql(ctx, g, ctx.subfields('WalletGroup', nodes))} FROM wallet_groups ${g} WHERE ${g}.id = ${id} AND ${owned(g)})`,
    };
  }
  if (name === '_entities') return { exists: 'true', json: entitiesSql(ctx, args.representations, nodes, owner) };
  return unplannable();
}

/**
 * Federation's `_entities` over Wallet representations: each one's wallet, or null when it is
 * missing or another owner's, in the order given (as Wallet.__resolveReference). Any other
 * representation (another type, an id the loader would read differently) is the resolvers'.
 */
function entitiesSql(ctx: PlanContext, representations: unknown, nodes: readonly FieldNode[], owner: string): string {
  if (!Array.isArray(representations)) return unplannable();
  const ids = representations.map((representation: { __typename?: unknown; id?: unknown } | null) =>
    representation?.__typename === 'Wallet' && typeof representation.id === 'string' && CANONICAL_UUID.test(representation.id)
      ? representation.id
      : unplannable(),
  );
  const w = ctx.alias('w');
  // a join, not a subquery per representation: the wallets' currencies are then read once per project
  // (walletJoins); each wallet by its primary key whatever the owner's number of wallets (LATERAL)
  const wallet = `CASE WHEN ${w}.id IS NULL THEN 'null' ELSE ${walletSql(ctx, w, ctx.subfields('Wallet', nodes))} END`;
  return `(SELECT ${jsonArraySql(wallet, 'x.ord')}
             FROM unnest(${ctx.param(ids, 'uuid[]')}) WITH ORDINALITY AS x(id, ord)
             LEFT JOIN LATERAL (SELECT * FROM wallets ${w} WHERE ${w}.id = x.id AND ${ownedBy(w, owner)} LIMIT 1) ${w} ON true
             ${walletJoins(w)})`;
}
