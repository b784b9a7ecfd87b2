import { Arg, Args, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../context.js';
import { projectIdOf } from '../ids.js';
import { DRY_RUN_ARG, IDEMPOTENCY_KEY_ARG, idempotent } from '../idempotency.js';
import { keysetConnection, keysetOf, PageArgs } from '../paging.js';
import { holdModel, transactionModel, type HoldModel, type TransactionModel } from '../presenters.js';
import { DateTimeScalar, DecimalScalar, JSONObjectScalar } from '../scalars.js';
import { ConditionInput, CONDITIONS_DESCRIPTION } from '../inputs/condition.input.js';
import type { Connection } from '../types/connection.js';
import { HoldCaptureType, HoldConnection, HoldStatusEnum, HoldType } from '../types/hold.type.js';

/** Holds (CONTRACT §10): mutations take the REST body's fields as arguments; the rules are HoldService's. */
@Resolver(() => HoldType)
export class HoldResolver {
  @Query(() => HoldType, { nullable: true, description: 'One of your holds by id (as GET /holds/{id}); null, without an error, when it is missing, another owner\'s or the id is malformed.' })
  async hold(@Arg('id', () => ID, { description: "The hold's id (a UUID)." }) id: string, @Ctx() ctx: GraphQLContext): Promise<HoldModel | null> {
    const hold = await ctx.loaders.hold.load(id);
    return hold ? holdModel(hold) : null;
  }

  @Query(() => HoldConnection, { description: "One of your projects' holds, newest first (as GET /holds), optionally of one wallet or status." })
  async holds(
    @Arg('projectId', () => ID, { description: 'One of your projects (else `not_found`).' }) projectId: string,
    @Arg('walletId', () => String, { nullable: true, description: 'Only holds with this wallet (id or address in the project) on either side (else `not_found`).' }) walletId: string | null,
    @Arg('status', () => HoldStatusEnum, { nullable: true, description: 'Only holds in this status (EXPIRED includes pending holds past `expiresAt`).' }) status: HoldStatusEnum | null,
    @Args() { first, after }: PageArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<Connection<HoldModel>> {
    const query = { projectId: projectIdOf(projectId), ...(walletId != null && { walletId }), ...(status != null && { status }) };
    const page = await ctx.services.holds.list(ctx.principal, { ...query, ...keysetOf(first, after, ctx) });
    return keysetConnection(page, after, holdModel);
  }

  @Mutation(() => HoldType, {
    description:
      "Reserves an amount of the sender's available funds for a later captureHold or voidHold (as POST /holds); answers the PENDING hold. Nothing is posted: the sender's `held` grows, its `balance` and the receiver's do not change. Errors: `validation_error`, `not_found` (the project, a wallet, the currency), `wallet_inactive`, `insufficient_funds` (the sender's `available` balance is short), `conflict` (the reference is taken).",
  })
  createHold(
    @Arg('projectId', () => ID, { description: 'One of your projects (else `not_found`).' }) projectId: string,
    @Arg('currency', { description: 'An asset symbol of the project.' }) currency: string,
    @Arg('from', { description: 'The sender, whose funds are reserved: a wallet id or address in the project.' }) from: string,
    @Arg('to', { description: 'The receiver on capture: a wallet id or address in the project, not the sender.' }) to: string,
    @Arg('amount', () => DecimalScalar, { description: "Major units to reserve, > 0, with at most the asset's `fractions` decimals." }) amount: string | number,
    @Arg('expiresIn', () => Int, { nullable: true, description: 'Seconds until the hold expires if still pending, 1–2,592,000 (30 days); absent: never.' }) expiresIn: number | null,
    @Arg('matureIn', () => Int, { nullable: true, description: 'A maturing hold (a pending credit): seconds, 60–31,536,000, after which it captures itself for its whole amount unless voided or captured first. Not with `expiresIn` or `matureAt`.' }) matureIn: number | null,
    @Arg('matureAt', () => DateTimeScalar, { nullable: true, description: 'A maturing hold: the instant, at least 60 s ahead, at which it captures itself. Not with `expiresIn` or `matureIn`.' }) matureAt: Date | null,
    @Arg('reference', () => String, { nullable: true, description: 'Your own reference, 1–128 of A–Z a–z 0–9 . _ : / # -, unique per project among transactions and holds.' }) reference: string | null,
    @Arg('metadata', () => JSONObjectScalar, { nullable: true, description: 'Any JSON object of at most 4 KiB serialised; default {}.' }) metadata: Record<string, unknown> | null,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Arg('dryRun', () => Boolean, DRY_RUN_ARG) dryRun: boolean | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<HoldModel> {
    const args = { projectId, currency, from, to, amount, expiresIn, matureIn, matureAt, reference, metadata };
    const options = { dryRun: dryRun === true };
    return idempotent(ctx, 'createHold', idempotencyKey, args, async () =>
      holdModel(await ctx.services.holds.create(ctx.principal, { ...args, projectId: projectIdOf(projectId) }, options)),
      options,
    );
  }

  @Mutation(() => HoldCaptureType, {
    description:
      "Posts a pending hold (as POST /holds/{id}/capture): one transaction of `amount` from its sender to its receiver; the rest is released and the hold is CAPTURED. Errors: `validation_error`, `not_found` (the hold, or `projectId` not its project), `hold_expired` (it expired while pending), `hold_not_pending` (already captured or voided), `wallet_inactive` (either wallet not ACTIVE), `validation_error` (`amount` above the hold's).",
  })
  captureHold(
    @Arg('id', () => ID, { description: "The hold's id." }) id: string,
    @Arg('projectId', () => ID, { description: "The hold's project (else `not_found`)." }) projectId: string,
    @Arg('amount', () => DecimalScalar, { nullable: true, description: 'Major units to post, > 0 and at most the hold\'s amount; absent: the whole hold.' }) amount: string | number | null,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Arg('dryRun', () => Boolean, DRY_RUN_ARG) dryRun: boolean | null,
    @Arg('conditions', () => [ConditionInput], { nullable: true, description: `${CONDITIONS_DESCRIPTION} Parties: the hold's sender and receiver.` }) conditions: ConditionInput[] | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<{ transaction: TransactionModel; hold: HoldModel }> {
    const options = { dryRun: dryRun === true };
    const args = { id, projectId, amount, ...(conditions != null && { conditions }) };
    return idempotent(ctx, 'captureHold', idempotencyKey, args, async () => {
      const { transaction, hold } = await ctx.services.holds.capture(ctx.principal, id, { projectId: projectIdOf(projectId), amount, conditions }, options);
      return { transaction: transactionModel(transaction), hold: holdModel(hold) };
    }, options);
  }

  @Mutation(() => HoldType, { description: "Releases a pending hold without posting anything (as POST /holds/{id}/void); answers it VOIDED. Errors: `validation_error`, `not_found` (the hold, or `projectId` not its project), `hold_expired` (it expired while pending), `hold_not_pending` (already captured or voided)." })
  voidHold(
    @Arg('id', () => ID, { description: "The hold's id." }) id: string,
    @Arg('projectId', () => ID, { description: "The hold's project (else `not_found`)." }) projectId: string,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<HoldModel> {
    return idempotent(ctx, 'voidHold', idempotencyKey, { id, projectId }, async () =>
      holdModel(await ctx.services.holds.void(ctx.principal, id, { projectId: projectIdOf(projectId) })),
    );
  }
}
