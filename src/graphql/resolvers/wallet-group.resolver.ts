import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GroupBalanceView, WalletGroupView } from '../../domain/wallet-groups/wallet-group.types.js';
import type { WalletView } from '../../domain/wallets/wallet.types.js';
import { minorToDecimalString } from '../../domain/money.js';
import type { GraphQLContext } from '../context.js';
import { decodeCursor, encodeCursor } from '../cursors.js';
import { projectIdOf } from '../ids.js';
import { IDEMPOTENCY_KEY_ARG, idempotent } from '../idempotency.js';
import { checkFirst, PageArgs } from '../paging.js';
import { DateTimeScalar, JSONObjectScalar } from '../scalars.js';
import { toConnection, type Connection } from '../types/connection.js';
import { DeleteWalletGroupPayload, GroupBalanceType, WalletGroupType } from '../types/wallet-group.type.js';
import { WalletConnection } from '../types/wallet.type.js';

/** What WalletGroupType resolves from: JSON-safe, so a mutation's answer replays identically. */
export interface WalletGroupModel {
  id: string;
  projectId: number;
  name: string;
  parentId: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: string;
}

export const walletGroupModel = (group: WalletGroupView): WalletGroupModel => ({
  id: group.id,
  projectId: group.projectId,
  name: group.name,
  parentId: group.parentId,
  metadata: group.metadata,
  createdAt: group.createdAt.toISOString(),
});

const groupBalanceModel = (row: GroupBalanceView): GroupBalanceType => {
  const major = (minor: bigint) => minorToDecimalString(minor, row.fractions);
  return {
    currency: row.symbol,
    assetId: row.assetId,
    balance: major(row.amount),
    held: row.held === null ? null : major(row.held),
    available: row.held === null ? null : major(row.amount - row.held),
    incoming: row.held === null ? null : '0',
    wallets: row.wallets,
  };
};

const PROJECT_ID = { description: 'The project of the group (`not_found` if it is not yours, or the group is not in it).' };

/** Wallet groups (CONTRACT §29): the REST verbs as mutations; the rules are WalletGroupService's. */
@Resolver(() => WalletGroupType)
export class WalletGroupResolver {
  @Query(() => WalletGroupType, { nullable: true, description: 'One of your wallet groups by id (as GET /wallet-groups/{id}); a missing one, or another owner\'s, is `not_found`.' })
  async walletGroup(@Arg('id', () => ID, { description: "The group's id." }) id: string, @Ctx() ctx: GraphQLContext): Promise<WalletGroupModel> {
    return walletGroupModel(await ctx.services.walletGroups.get(ctx.principal, id));
  }

  @FieldResolver(() => WalletGroupType, { nullable: true, description: 'Its parent group; null for a root.' })
  async parent(@Root() group: WalletGroupModel, @Ctx() ctx: GraphQLContext): Promise<WalletGroupModel | null> {
    if (group.parentId === null) return null;
    const parent = await ctx.loaders.walletGroup.load(group.parentId);
    return parent && walletGroupModel(parent);
  }

  @FieldResolver(() => [WalletGroupType], { description: 'Its direct subgroups, oldest first.' })
  async groups(@Root() group: WalletGroupModel, @Ctx() ctx: GraphQLContext): Promise<WalletGroupModel[]> {
    return (await ctx.loaders.subgroups.load(group)).map(walletGroupModel);
  }

  @FieldResolver(() => [GroupBalanceType], {
    description: 'Sums over every wallet of the group and of its subgroups, one entry per currency one of them holds, in currency order. With `asOf`: the posted balances then of its current wallets (held, available and incoming null).',
  })
  async balances(
    @Root() group: WalletGroupModel,
    @Arg('asOf', () => DateTimeScalar, { nullable: true, description: 'An instant not in the future (else `validation_error`); absent: now.' }) asOf: Date | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<GroupBalanceType[]> {
    const rows = asOf ? await ctx.services.walletGroups.balancesAsOf(group, asOf) : await ctx.loaders.groupBalances.load(group);
    return rows.map(groupBalanceModel);
  }

  @FieldResolver(() => WalletConnection, { description: "The group's own wallets (not its subgroups'), oldest first." })
  async wallets(@Root() group: WalletGroupModel, @Args() { first, after }: PageArgs, @Ctx() ctx: GraphQLContext): Promise<Connection<WalletView>> {
    checkFirst(first, ctx.limits.maxPageSize);
    const { ids, total } = await ctx.services.walletGroups.members(group, first, decodeCursor('seq', after));
    const wallets = await ctx.loaders.wallet.loadMany(ids.slice(0, first).map((row) => row.id));
    const rows = ids.slice(0, first).map((row, i) => ({ seq: row.seq, wallet: wallets[i] as WalletView }));
    return toConnection(
      { rows, hasNextPage: ids.length > first, hasPreviousPage: after !== null && after !== undefined },
      (row) => encodeCursor('seq', row.seq),
      (row) => row.wallet,
      () => total,
    );
  }

  @Mutation(() => WalletGroupType, { description: 'Creates a wallet group, a root or under `parentId` (as POST /wallet-groups). Errors: `validation_error` (a name outside 1–100 characters, a tree deeper than 8), `not_found` (project, parent), `quota_exceeded` (10,000 groups per project).' })
  createWalletGroup(
    @Arg('projectId', () => ID, { description: 'The project the group belongs to.' }) projectId: string,
    @Arg('name', { description: '1 to 100 characters.' }) name: string,
    @Arg('parentId', () => ID, { nullable: true, description: 'The parent group; absent: a root.' }) parentId: string | null,
    @Arg('metadata', () => JSONObjectScalar, { nullable: true, description: 'Any JSON object (16 KiB at most).' }) metadata: Record<string, unknown> | null,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<WalletGroupModel> {
    const args = { projectId, name, parentId, metadata };
    return idempotent(ctx, 'createWalletGroup', idempotencyKey, args, async () =>
      walletGroupModel(await ctx.services.walletGroups.create(ctx.principal, { ...args, projectId: projectIdOf(projectId) })),
    );
  }

  @Mutation(() => WalletGroupType, { description: 'Renames a group and/or moves it (as PUT /wallet-groups/{id}): `parentId` null makes it a root, absent keeps its parent. A move making a cycle or a tree deeper than 8 is `validation_error`.' })
  updateWalletGroup(
    @Arg('id', () => ID, { description: "The group's id." }) id: string,
    @Arg('projectId', () => ID, PROJECT_ID) projectId: string,
    @Arg('name', () => String, { nullable: true, description: 'A new name; absent: unchanged.' }) name: string | null,
    @Arg('parentId', () => ID, { nullable: true, description: 'The new parent; null: a root; absent: unchanged.' }) parentId: string | null | undefined,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<WalletGroupModel> {
    const args = { id, projectId, name, parentId };
    return idempotent(ctx, 'updateWalletGroup', idempotencyKey, args, async () =>
      walletGroupModel(await ctx.services.walletGroups.update(ctx.principal, id, { projectId: projectIdOf(projectId), name: name ?? undefined, parentId })),
    );
  }

  @Mutation(() => DeleteWalletGroupPayload, { description: 'Deletes a group without wallets and subgroups (as DELETE /wallet-groups/{id}); otherwise `conflict`.' })
  deleteWalletGroup(
    @Arg('id', () => ID, { description: "The group's id." }) id: string,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<{ id: string; deleted: true }> {
    return idempotent(ctx, 'deleteWalletGroup', idempotencyKey, { id }, () => ctx.services.walletGroups.delete(ctx.principal, id));
  }

  @Mutation(() => WalletGroupType, { description: 'Puts a wallet (id or address) in the group, out of the group it was in (as PUT /wallet-groups/{id}/wallets/{walletId}).' })
  addWalletToGroup(
    @Arg('id', () => ID, { description: "The group's id." }) id: string,
    @Arg('walletId', { description: 'A wallet id or address of the project.' }) walletId: string,
    @Arg('projectId', () => ID, PROJECT_ID) projectId: string,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<WalletGroupModel> {
    return idempotent(ctx, 'addWalletToGroup', idempotencyKey, { id, walletId, projectId }, async () =>
      walletGroupModel(await ctx.services.walletGroups.addWallet(ctx.principal, id, walletId, { projectId: projectIdOf(projectId) })),
    );
  }

  @Mutation(() => WalletGroupType, { description: 'Takes a wallet out of the group (as DELETE /wallet-groups/{id}/wallets/{walletId}); `not_found` when it is not in it.' })
  removeWalletFromGroup(
    @Arg('id', () => ID, { description: "The group's id." }) id: string,
    @Arg('walletId', { description: 'A wallet id or address of the project.' }) walletId: string,
    @Arg('projectId', () => ID, PROJECT_ID) projectId: string,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<WalletGroupModel> {
    return idempotent(ctx, 'removeWalletFromGroup', idempotencyKey, { id, walletId, projectId }, async () =>
      walletGroupModel(await ctx.services.walletGroups.removeWallet(ctx.principal, id, walletId, { projectId: projectIdOf(projectId) })),
    );
  }
}
