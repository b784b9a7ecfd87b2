import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { transactionTotal } from '../../domain/ledger/ledger.types.js';
import type { ProjectView } from '../../domain/projects/project.types.js';
import type { WalletView } from '../../domain/wallets/wallet.types.js';
import type { GraphQLContext } from '../context.js';
import { decodeCursor, encodeCursor } from '../cursors.js';
import { projectIdOf } from '../ids.js';
import { IDEMPOTENCY_KEY_ARG, idempotent } from '../idempotency.js';
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
  'As it was at this instant (ISO 8601 with Z or any offset; digits finer than milliseconds are dropped): a transaction dated exactly then is included. Not in the future and not before the wallet was created, else `validation_error`. Absent: now.';

@Resolver(() => WalletType)
export class WalletResolver {
  @Query(() => WalletType, {
    nullable: true,
    description: 'One of your wallets by id (as GET /wallets/{id}). A missing wallet, or another owner\'s, is a `not_found` error (and `wallet: null`); a malformed id a `validation_error`.',
  })
  wallet(@Arg('id', () => ID, { description: "The wallet's id (a UUID)." }) id: string, @Ctx() ctx: GraphQLContext): Promise<WalletView> {
    return ctx.services.wallets.get(ctx.principal, id);
  }

  @Query(() => WalletConnection, { description: "One of your projects' wallets, optionally of one type, oldest first (as GET /wallets/{type}?projectId=)." })
  async wallets(
    @Arg('projectId', () => ID, { description: 'One of your projects (else `not_found`).' }) projectId: string,
    @Arg('type', () => WalletTypeEnum, { nullable: true, description: 'Only wallets of this type; absent: both.' }) type: WalletTypeEnum | null,
    @Args() { first, after }: PageArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<Connection<WalletView>> {
    const project = await ctx.services.projects.get(ctx.principal, projectIdOf(projectId)); // another owner's: not_found
    return walletsOf(ctx, project.id, type, first, after);
  }

  @FieldResolver(() => ProjectType, { description: 'The project the wallet belongs to.' })
  project(@Root() wallet: WalletView, @Ctx() ctx: GraphQLContext): Promise<ProjectView | null> {
    return ctx.loaders.project.load(wallet.projectId);
  }

  @FieldResolver(() => [BalanceType], { description: "The wallet's balance in each currency of its project, zero included: the primary asset first, then the others oldest first." })
  async balances(
    @Root() wallet: WalletView,
    @Arg('asOf', () => DateTimeScalar, { nullable: true, description: `${AS_OF} Posted balances: \`held\` and \`available\` are null.` }) asOf: Date | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<BalanceModel[]> {
    if (asOf) return (await ctx.loaders.balancesAsOf.load({ wallet, asOf })).map(balanceAsOfModel);
    return (await ctx.loaders.balances.load(wallet.id)).map(balanceModel);
  }

  @FieldResolver(() => RecentTransactionConnection, { description: "The wallet's transactions in every currency, as sender or receiver, newest first; each `balance` is this wallet's right after it." })
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

  @Mutation(() => WalletType, {
    description:
      "Creates a wallet in one of your projects (as POST /wallets/create/{type}), ACTIVE with zero balances. Errors: `validation_error`, `not_found` (the project), `conflict` (the address is taken in the project), `quota_exceeded` (the plan's customer_wallets or system_wallets).",
  })
  createWallet(
    @Arg('type', () => WalletTypeEnum, { description: 'Customer or system wallet.' }) type: WalletTypeEnum,
    @Arg('input', () => CreateWalletInput, { description: 'The new wallet.' }) input: CreateWalletInput,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<WalletView> {
    return idempotent(ctx, 'createWallet', idempotencyKey, { type, input }, () =>
      ctx.services.wallets.create(ctx.principal, type, { ...withoutNulls(input), projectId: projectIdOf(input.projectId) }),
    );
  }

  @Mutation(() => WalletType, {
    description:
      'Suspends, reactivates or closes a wallet (as PUT /wallets/status/{id}) and answers it as it is now. Errors: `validation_error`, `not_found` (the wallet, or `projectId` not its project), `conflict` (a CLOSED wallet cannot change), `wallet_not_empty` (closing a wallet with a non-zero balance or a pending hold on either side).',
  })
  setWalletStatus(
    @Arg('id', () => ID, { description: "The wallet's id." }) id: string,
    @Arg('input', () => SetWalletStatusInput, { description: 'The new status and the wallet\'s project.' }) input: SetWalletStatusInput,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<WalletView> {
    return idempotent(ctx, 'setWalletStatus', idempotencyKey, { id, input }, () =>
      ctx.services.wallets.setStatus(ctx.principal, id, { projectId: projectIdOf(input.projectId), status: input.status }),
    );
  }
}
