import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { HistoryRow } from '../../domain/ledger/ledger.types.js';
import type { WalletView } from '../../domain/wallets/wallet.types.js';
import type { GraphQLContext } from '../context.js';
import { projectIdOf } from '../ids.js';
import { DRY_RUN_ARG, IDEMPOTENCY_KEY_ARG, idempotent } from '../idempotency.js';
import { BatchTransferInput, SeedInput, TransferInput } from '../inputs/ledger.input.js';
import { DecimalScalar, JSONObjectScalar } from '../scalars.js';
import { keysetConnection, keysetOf, PageArgs } from '../paging.js';
import { balanceAsOfModel, balanceModel, transactionByIdModel, transactionModel, type BalanceModel, type TransactionModel } from '../presenters.js';
import { DateTimeScalar } from '../scalars.js';
import type { Connection } from '../types/connection.js';
import { TransactionHistoryType, TransactionType } from '../types/transaction.type.js';
import { WalletType } from '../types/wallet.type.js';

/** What a transfer can be refused with, whether alone or as a batch leg. */
const POSTING_ERRORS =
  "`validation_error` (a field out of range), `not_found` (the project, a wallet, the currency), `wallet_inactive` (a wallet not ACTIVE), `insufficient_funds` (the sender's `available` balance is short), `limit_exceeded`, `conflict` (the reference is taken), `condition_failed` (a condition does not hold after the posting)";

@Resolver(() => TransactionType)
export class TransactionResolver {
  /**
   * Through the request's transaction loader, as federation's references: several
   * `transaction(id)` roots and `_entities` of one request are one statement. Missing or another
   * owner's: not_found, as the other single-object roots (docs/decisions/graphql-transaction-by-id-and-descriptions.md).
   */
  @Query(() => TransactionType, {
    nullable: true,
    description:
      'One of your transactions by id, whatever its project or wallets. A missing transaction, or another owner\'s, is a `not_found` error (and `transaction: null`); a malformed id a `validation_error`. Its `balance` is null: read through no wallet\'s history, it names no wallet\'s side.',
  })
  async transaction(@Arg('id', () => ID, { description: "The transaction's id (a UUID)." }) id: string, @Ctx() ctx: GraphQLContext): Promise<TransactionModel> {
    return transactionByIdModel(await ctx.services.history.transaction(ctx.principal, id, (wanted) => ctx.loaders.transaction.load(wanted)));
  }

  @Query(() => TransactionHistoryType, {
    nullable: true,
    description:
      "A wallet's history in one currency (as GET /transactions): its balance and its transactions in that currency, newest first, each with the wallet's balance right after it. With `asOf`, both as they were at that instant. Errors: `validation_error`, `not_found` (the wallet, the project, the currency, or a project without any asset and no `currency`).",
  })
  async transactions(
    @Arg('walletId', { description: 'A wallet id; or a wallet address, then with `projectId`. A UUID is looked up as an id first.' }) walletId: string,
    @Arg('projectId', () => ID, { nullable: true, description: 'The project in which `walletId` is an address (required for an address).' }) projectId: string | null,
    @Arg('currency', () => String, { nullable: true, description: "An asset symbol of the wallet's project; absent: the project's primary asset." }) currency: string | null,
    @Arg('reference', () => String, { nullable: true, description: 'Only the transaction with this reference (exact match).' }) reference: string | null,
    @Args() { first, after }: PageArgs,
    @Arg('asOf', () => DateTimeScalar, {
      nullable: true,
      description:
        'As of this instant (ISO 8601 with Z or any offset): the balance then and the transactions dated at or before it. Not in the future and not before the wallet was created, else `validation_error`. Absent: now.',
    })
    asOf: Date | null,
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
      const page = await ctx.services.history.historyAsOf(ctx.principal, { ...query, ...keyset, asOf });
      return Object.assign(connectionOf(page), { balance: balanceAsOfModel(page.balance) });
    }
    const page = await ctx.services.history.history(ctx.principal, { ...query, ...keyset });
    return Object.assign(connectionOf(page), { balance: balanceModel(page.balance) });
  }

  @FieldResolver(() => WalletType, { nullable: true, description: 'The sending wallet; null for a seed (sent by @mint).' })
  fromWallet(@Root() transaction: TransactionModel, @Ctx() ctx: GraphQLContext): Promise<WalletView | null> | null {
    return transaction.fromWalletId ? ctx.loaders.wallet.load(transaction.fromWalletId) : null;
  }

  @FieldResolver(() => WalletType, { nullable: true, description: 'The receiving wallet; null for the reversal of a seed (back to @mint) and for an expiry (to @expired).' })
  toWallet(@Root() transaction: TransactionModel, @Ctx() ctx: GraphQLContext): Promise<WalletView | null> | null {
    return transaction.toWalletId ? ctx.loaders.wallet.load(transaction.toWalletId) : null;
  }

  @Mutation(() => [TransactionType], {
    description: `Posts 1–100 transfers of one project atomically (as POST /transactions/batch): all or none, in order, so a leg may spend what an earlier leg credited. Answers one transaction per leg, in order, each \`balance\` its sender's. A refused leg refuses the whole batch with that leg's error and \`details.index\` (0-based): ${POSTING_ERRORS}.`,
  })
  transferBatch(
    @Arg('projectId', () => ID, { description: 'One of your projects (else `not_found`): every leg is in it.' }) projectId: string,
    @Arg('transfers', () => [BatchTransferInput], { description: 'The legs, 1–100, run in this order.' }) transfers: BatchTransferInput[],
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Arg('dryRun', () => Boolean, DRY_RUN_ARG) dryRun: boolean | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TransactionModel[]> {
    const options = { dryRun: dryRun === true };
    return idempotent(ctx, 'transferBatch', idempotencyKey, { projectId, transfers }, async () =>
      (await ctx.services.ledger.batch(ctx.principal, { projectId: projectIdOf(projectId), transfers: transfers.map((leg) => ({ ...leg })) }, options)).map(transactionModel),
      options,
    );
  }

  @Mutation(() => TransactionType, {
    description:
      "Posts a reversal (as POST /transactions/{id}/reverse): a new transaction of `amount` from the original's receiver back to its sender (to @mint for a seed); the original's `reversedAmount` grows by it. Its `balance` is its own sender's (the original's receiver). Errors: `validation_error`, `not_found` (the transaction or project), `conflict` (more than is still reversible, with `details.reversible`; a reversal or an expiry cannot be reversed; the reference is taken), `insufficient_funds` (the original's receiver lacks the amount available), `wallet_inactive` (either wallet not ACTIVE).",
  })
  reverseTransaction(
    @Arg('id', () => ID, { description: 'The id of the transaction to reverse.' }) id: string,
    @Arg('projectId', () => ID, { description: "The transaction's project (else `not_found`)." }) projectId: string,
    @Arg('amount', () => DecimalScalar, { nullable: true, description: 'Major units to send back, > 0; absent: all that is still reversible (`amount` − `reversedAmount`).' }) amount: string | number | null,
    @Arg('reference', () => String, { nullable: true, description: "The reversal's own reference, 1–128 of A–Z a–z 0–9 . _ : / # -, unique per project among transactions and holds." }) reference: string | null,
    @Arg('metadata', () => JSONObjectScalar, { nullable: true, description: "The reversal's metadata: any JSON object of at most 4 KiB serialised; default {}." }) metadata: Record<string, unknown> | null,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Arg('dryRun', () => Boolean, DRY_RUN_ARG) dryRun: boolean | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TransactionModel> {
    const options = { dryRun: dryRun === true };
    return idempotent(ctx, 'reverseTransaction', idempotencyKey, { id, projectId, amount, reference, metadata }, async () =>
      transactionModel(await ctx.services.ledger.reverse(ctx.principal, id, { projectId: projectIdOf(projectId), amount, reference, metadata }, options)),
      options,
    );
  }

  @Mutation(() => TransactionType, {
    description: `Moves an amount from one wallet to another of the same project (as POST /transactions); its \`balance\` is the sender's right after. Errors: ${POSTING_ERRORS}.`,
  })
  transfer(
    @Arg('input', () => TransferInput, { description: 'The transfer.' }) input: TransferInput,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Arg('dryRun', () => Boolean, DRY_RUN_ARG) dryRun: boolean | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TransactionModel> {
    const options = { dryRun: dryRun === true };
    return idempotent(ctx, 'transfer', idempotencyKey, { input }, async () =>
      transactionModel(await ctx.services.ledger.transfer(ctx.principal, { ...input, projectId: projectIdOf(input.projectId) }, options)),
      options,
    );
  }

  @Mutation(() => TransactionType, {
    description:
      "Mints new money into a system wallet, from @mint (as POST /transactions/seed); its `balance` is the seeded wallet's right after. Errors: `validation_error` (a field out of range, or `to` is not a system wallet), `not_found` (the project, the wallet, the currency), `wallet_inactive`, `conflict` (the reference is taken).",
  })
  seed(
    @Arg('input', () => SeedInput, { description: 'The seed.' }) input: SeedInput,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Arg('dryRun', () => Boolean, DRY_RUN_ARG) dryRun: boolean | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TransactionModel> {
    const options = { dryRun: dryRun === true };
    return idempotent(ctx, 'seed', idempotencyKey, { input }, async () =>
      transactionModel(await ctx.services.ledger.seed(ctx.principal, { ...input, projectId: projectIdOf(input.projectId) }, options)),
      options,
    );
  }
}
