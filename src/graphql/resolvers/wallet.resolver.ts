import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { transactionTotal } from '../../domain/ledger/ledger.types.js';
import type { ProjectView } from '../../domain/projects/project.types.js';
import type { WalletView } from '../../domain/wallets/wallet.types.js';
import type { GraphQLContext } from '../context.js';
import { decodeCursor, encodeCursor } from '../cursors.js';
import { projectIdOf } from '../ids.js';
import { idempotent } from '../idempotency.js';
import { withoutNulls } from '../inputs/nulls.js';
import { CreateWalletInput, SetWalletStatusInput } from '../inputs/wallet.input.js';
import { checkFirst, PageArgs } from '../paging.js';
import { balanceAsOfModel, balanceModel, transactionModel, type BalanceModel, type TransactionModel } from '../presenters.js';
import { DateTimeScalar } from '../scalars.js';
import { toConnection, type Connection } from '../types/connection.js';
import { ProjectType } from '../types/project.type.js';
import { BalanceType, RecentTransactionConnection } from '../types/transaction.type.js';
import { WalletConnection, WalletType, WalletTypeEnum } from '../types/wallet.type.js';
import { walletsOf } from './project.resolver.js';

const AS_OF =
  'As it was at this instant (CONTRACT §14): ISO 8601 with Z or any offset; a transaction dated exactly then is included, finer digits than milliseconds are truncated. Not in the future, not before the wallet was created.';

@Resolver(() => WalletType)
export class WalletResolver {
  @Query(() => WalletType, { nullable: true, description: 'GET /wallets/{id}.' })
  wallet(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<WalletView> {
    return ctx.services.wallets.get(ctx.principal, id);
  }

  @Query(() => WalletConnection, { description: "A project's wallets, optionally of one type, oldest first (GET /wallets/{type}?projectId=)." })
  async wallets(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('type', () => WalletTypeEnum, { nullable: true }) type: WalletTypeEnum | null,
    @Args() { first, after }: PageArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<Connection<WalletView>> {
    const project = await ctx.services.projects.get(ctx.principal, projectIdOf(projectId)); // another owner's: not_found
    return walletsOf(ctx, project.id, type, first, after);
  }

  @FieldResolver(() => ProjectType)
  project(@Root() wallet: WalletView, @Ctx() ctx: GraphQLContext): Promise<ProjectView | null> {
    return ctx.loaders.project.load(wallet.projectId);
  }

  @FieldResolver(() => [BalanceType], { description: "One entry per currency of the wallet's project, zero included." })
  async balances(
    @Root() wallet: WalletView,
    @Arg('asOf', () => DateTimeScalar, { nullable: true, description: `${AS_OF} Posted balances: \`held\` and \`available\` are null.` }) asOf: Date | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<BalanceModel[]> {
    if (asOf) return (await ctx.loaders.balancesAsOf.load({ wallet, asOf })).map((row) => balanceAsOfModel(row, asOf));
    return (await ctx.loaders.balances.load(wallet.id)).map(balanceModel);
  }

  @FieldResolver(() => RecentTransactionConnection, { description: "The wallet's transactions in every currency, newest first." })
  async transactions(
    @Root() wallet: WalletView,
    @Args() { first, after }: PageArgs,
    @Arg('asOf', () => DateTimeScalar, { nullable: true, description: AS_OF }) asOf: Date | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<Connection<TransactionModel>> {
    checkFirst(first, ctx.limits.maxPageSize);
    const beforeSeq = decodeCursor('seq', after);
    const rows = asOf
      ? await ctx.loaders.recentTransactionsAsOf.load({ wallet, asOf, first, beforeSeq })
      : await ctx.loaders.recentTransactions.load({ walletId: wallet.id, first, beforeSeq });
    return toConnection(
      { rows: rows.slice(0, first), hasNextPage: rows.length > first, hasPreviousPage: after !== null && after !== undefined },
      (row) => encodeCursor('seq', row.seq),
      transactionModel,
      asOf
        ? async () => transactionTotal(await ctx.loaders.balancesAsOf.load({ wallet, asOf }))
        : () => ctx.loaders.transactionCounts.load(wallet.id),
    );
  }

  @Mutation(() => WalletType, { description: 'POST /wallets/create/{type}.' })
  createWallet(
    @Arg('type', () => WalletTypeEnum) type: WalletTypeEnum,
    @Arg('input', () => CreateWalletInput) input: CreateWalletInput,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<WalletView> {
    return idempotent(ctx, 'createWallet', idempotencyKey, { type, input }, () =>
      ctx.services.wallets.create(ctx.principal, type, { ...withoutNulls(input), projectId: projectIdOf(input.projectId) }),
    );
  }

  @Mutation(() => WalletType, { description: 'PUT /wallets/status/{id}.' })
  setWalletStatus(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => SetWalletStatusInput) input: SetWalletStatusInput,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<WalletView> {
    return idempotent(ctx, 'setWalletStatus', idempotencyKey, { id, input }, () =>
      ctx.services.wallets.setStatus(ctx.principal, id, { projectId: projectIdOf(input.projectId), status: input.status }),
    );
  }
}
