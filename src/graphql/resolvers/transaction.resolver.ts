import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { HistoryRow } from '../../domain/ledger/ledger.types.js';
import type { WalletView } from '../../domain/wallets/wallet.types.js';
import type { GraphQLContext } from '../context.js';
import { projectIdOf } from '../ids.js';
import { DRY_RUN_ARG, idempotent, keyOf } from '../idempotency.js';
import { BatchTransferInput, SeedInput, TransferInput } from '../inputs/ledger.input.js';
import { DecimalScalar, JSONObjectScalar } from '../scalars.js';
import { keysetConnection, keysetOf, PageArgs } from '../paging.js';
import { balanceAsOfModel, balanceModel, transactionModel, type BalanceModel, type TransactionModel } from '../presenters.js';
import { DateTimeScalar } from '../scalars.js';
import type { Connection } from '../types/connection.js';
import { TransactionHistoryType, TransactionType } from '../types/transaction.type.js';
import { WalletType } from '../types/wallet.type.js';

@Resolver(() => TransactionType)
export class TransactionResolver {
  @Query(() => TransactionHistoryType, {
    nullable: true,
    description:
      "GET /transactions: a wallet's balance in one currency (default: the project's primary) and its transactions in it, newest first. `walletId` is a wallet id, or an address in `projectId`. With `asOf`, as they were at that instant (CONTRACT §14).",
  })
  async transactions(
    @Arg('walletId') walletId: string,
    @Arg('projectId', () => ID, { nullable: true }) projectId: string | null,
    @Arg('currency', () => String, { nullable: true }) currency: string | null,
    @Arg('reference', () => String, { nullable: true, description: 'Only the transaction with this reference (exact match).' }) reference: string | null,
    @Args() { first, after }: PageArgs,
    @Arg('asOf', () => DateTimeScalar, { nullable: true, description: 'As of this instant (ISO 8601 with Z or any offset), as GET /transactions?asOf=.' }) asOf: Date | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<Connection<TransactionModel> & { balance: BalanceModel }> {
    const query = {
      walletId,
      ...(projectId != null && { projectId: projectIdOf(projectId) }),
      ...(currency != null && { currency }),
      ...(reference != null && { reference }),
    };
    const keyset = keysetOf(first, after, ctx);
    const connectionOf = (page: { rows: HistoryRow[]; total: number; hasMore: boolean }) => keysetConnection({ ...page, items: page.rows }, after, transactionModel);
    if (asOf) {
      const page = await ctx.services.ledger.historyAsOf(ctx.principal, { ...query, ...keyset, asOf });
      return Object.assign(connectionOf(page), { balance: balanceAsOfModel(page.balance, asOf) });
    }
    const page = await ctx.services.ledger.history(ctx.principal, { ...query, ...keyset });
    return Object.assign(connectionOf(page), { balance: balanceModel(page.balance) });
  }

  @FieldResolver(() => WalletType, { nullable: true, description: 'null for a seed (from @mint).' })
  fromWallet(@Root() transaction: TransactionModel, @Ctx() ctx: GraphQLContext): Promise<WalletView | null> | null {
    return transaction.fromWalletId ? ctx.loaders.wallet.load(transaction.fromWalletId) : null;
  }

  @FieldResolver(() => WalletType, { nullable: true, description: 'null for the reversal of a seed (back to @mint) and for an expiry (to @expired).' })
  toWallet(@Root() transaction: TransactionModel, @Ctx() ctx: GraphQLContext): Promise<WalletView | null> | null {
    return transaction.toWalletId ? ctx.loaders.wallet.load(transaction.toWalletId) : null;
  }

  @Mutation(() => [TransactionType], { description: "POST /transactions/batch: 1–100 transfers, all or none, in order; each `balance` is its sender's." })
  transferBatch(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('transfers', () => [BatchTransferInput]) transfers: BatchTransferInput[],
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Arg('dryRun', () => Boolean, DRY_RUN_ARG) dryRun: boolean | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TransactionModel[]> {
    const options = { dryRun: dryRun === true };
    return idempotent(ctx, 'transferBatch', keyOf(idempotencyKey, options), { projectId, transfers }, async () =>
      (await ctx.services.ledger.batch(ctx.principal, { projectId: projectIdOf(projectId), transfers: transfers.map((leg) => ({ ...leg })) }, options)).map(transactionModel),
    );
  }

  @Mutation(() => TransactionType, { description: "POST /transactions/{id}/reverse: back from the original's receiver to its sender (@mint for a seed); `balance` is the reversal's sender's." })
  reverseTransaction(
    @Arg('id', () => ID) id: string,
    @Arg('projectId', () => ID) projectId: string,
    @Arg('amount', () => DecimalScalar, { nullable: true, description: 'Default: all that is still reversible.' }) amount: string | number | null,
    @Arg('reference', () => String, { nullable: true }) reference: string | null,
    @Arg('metadata', () => JSONObjectScalar, { nullable: true }) metadata: Record<string, unknown> | null,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Arg('dryRun', () => Boolean, DRY_RUN_ARG) dryRun: boolean | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TransactionModel> {
    const options = { dryRun: dryRun === true };
    return idempotent(ctx, 'reverseTransaction', keyOf(idempotencyKey, options), { id, projectId, amount, reference, metadata }, async () =>
      transactionModel(await ctx.services.ledger.reverse(ctx.principal, id, { projectId: projectIdOf(projectId), amount, reference, metadata }, options)),
    );
  }

  @Mutation(() => TransactionType, { description: "POST /transactions; `balance` is the sender's resulting balance." })
  transfer(
    @Arg('input', () => TransferInput) input: TransferInput,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Arg('dryRun', () => Boolean, DRY_RUN_ARG) dryRun: boolean | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TransactionModel> {
    const options = { dryRun: dryRun === true };
    return idempotent(ctx, 'transfer', keyOf(idempotencyKey, options), { input }, async () =>
      transactionModel(await ctx.services.ledger.transfer(ctx.principal, { ...input, projectId: projectIdOf(input.projectId) }, options)),
    );
  }

  @Mutation(() => TransactionType, { description: "POST /transactions/seed: mints into a system wallet from @mint; `balance` is the seeded wallet's." })
  seed(
    @Arg('input', () => SeedInput) input: SeedInput,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Arg('dryRun', () => Boolean, DRY_RUN_ARG) dryRun: boolean | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TransactionModel> {
    const options = { dryRun: dryRun === true };
    return idempotent(ctx, 'seed', keyOf(idempotencyKey, options), { input }, async () =>
      transactionModel(await ctx.services.ledger.seed(ctx.principal, { ...input, projectId: projectIdOf(input.projectId) }, options)),
    );
  }
}
