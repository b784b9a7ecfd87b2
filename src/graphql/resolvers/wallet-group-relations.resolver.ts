import { Arg, Args, Ctx, FieldResolver, ID, Resolver, Root } from 'type-graphql';
import type { ProjectView } from '../../domain/projects/project.types.js';
import type { WalletView } from '../../domain/wallets/wallet.types.js';
import type { GraphQLContext } from '../context.js';
import { decodeCursor, encodeCursor } from '../cursors.js';
import { checkFirst, PageArgs } from '../paging.js';
import { toConnection, type Connection } from '../types/connection.js';
import { ProjectType } from '../types/project.type.js';
import { WalletGroupConnection, WalletGroupType } from '../types/wallet-group.type.js';
import { WalletType } from '../types/wallet.type.js';
import { walletGroupModel, type WalletGroupModel } from './wallet-group.resolver.js';

/** Project.walletGroups (CONTRACT §29): the project's root groups, or `parentId`'s children. */
@Resolver(() => ProjectType)
export class ProjectWalletGroupsResolver {
  @FieldResolver(() => WalletGroupConnection, { description: "The project's wallet groups, oldest first: its roots, or the children of `parentId`." })
  async walletGroups(
    @Root() project: ProjectView,
    @Arg('parentId', () => ID, { nullable: true, description: 'A group of the project: its direct subgroups; absent: the roots.' }) parentId: string | null,
    @Args() { first, after }: PageArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<Connection<WalletGroupModel>> {
    checkFirst(first, ctx.limits.maxPageSize);
    const { rows, total } = await ctx.services.walletGroups.pageOf(ctx.principal, project.id, parentId ?? null, first, decodeCursor('seq', after));
    return toConnection(
      { rows: rows.slice(0, first), hasNextPage: rows.length > first, hasPreviousPage: after !== null && after !== undefined },
      (row) => encodeCursor('seq', row.seq),
      walletGroupModel,
      () => total,
    );
  }
}

/** Wallet.group (CONTRACT §29). */
@Resolver(() => WalletType)
export class WalletGroupOfWalletResolver {
  @FieldResolver(() => WalletGroupType, { nullable: true, description: 'The group the wallet is in; null when none.' })
  async group(@Root() wallet: WalletView, @Ctx() ctx: GraphQLContext): Promise<WalletGroupModel | null> {
    if (wallet.groupId === null) return null;
    const group = await ctx.loaders.walletGroup.load(wallet.groupId);
    return group && walletGroupModel(group);
  }
}
