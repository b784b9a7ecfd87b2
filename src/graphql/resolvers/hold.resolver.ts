import { Arg, Args, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../context.js';
import { projectIdOf } from '../ids.js';
import { DRY_RUN_ARG, idempotent, keyOf } from '../idempotency.js';
import { keysetConnection, keysetOf, PageArgs } from '../paging.js';
import { holdModel, transactionModel, type HoldModel, type TransactionModel } from '../presenters.js';
import { DecimalScalar, JSONObjectScalar } from '../scalars.js';
import type { Connection } from '../types/connection.js';
import { HoldCaptureType, HoldConnection, HoldStatusEnum, HoldType } from '../types/hold.type.js';

/** Holds (CONTRACT §10): mutations take the REST body's fields as arguments; the rules are HoldService's. */
@Resolver(() => HoldType)
export class HoldResolver {
  @Query(() => HoldType, { nullable: true, description: 'GET /holds/{id}; null when missing or not yours.' })
  async hold(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<HoldModel | null> {
    const hold = await ctx.loaders.hold.load(id);
    return hold ? holdModel(hold) : null;
  }

  @Query(() => HoldConnection, { description: "GET /holds: a project's holds, newest first; walletId (id or address) matches either side." })
  async holds(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('walletId', () => String, { nullable: true }) walletId: string | null,
    @Arg('status', () => HoldStatusEnum, { nullable: true }) status: HoldStatusEnum | null,
    @Args() { first, after }: PageArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<Connection<HoldModel>> {
    const query = { projectId: projectIdOf(projectId), ...(walletId != null && { walletId }), ...(status != null && { status }) };
    const page = await ctx.services.holds.list(ctx.principal, { ...query, ...keysetOf(first, after, ctx) });
    return keysetConnection(page, after, holdModel);
  }

  @Mutation(() => HoldType, { description: "POST /holds: reserves the sender's available funds; nothing is posted." })
  createHold(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('currency') currency: string,
    @Arg('from') from: string,
    @Arg('to') to: string,
    @Arg('amount', () => DecimalScalar) amount: string | number,
    @Arg('expiresIn', () => Int, { nullable: true, description: 'Seconds, 1–2,592,000; absent: no expiry.' }) expiresIn: number | null,
    @Arg('reference', () => String, { nullable: true }) reference: string | null,
    @Arg('metadata', () => JSONObjectScalar, { nullable: true }) metadata: Record<string, unknown> | null,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Arg('dryRun', () => Boolean, DRY_RUN_ARG) dryRun: boolean | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<HoldModel> {
    const args = { projectId, currency, from, to, amount, expiresIn, reference, metadata };
    const options = { dryRun: dryRun === true };
    return idempotent(ctx, 'createHold', keyOf(idempotencyKey, options), args, async () =>
      holdModel(await ctx.services.holds.create(ctx.principal, { ...args, projectId: projectIdOf(projectId) }, options)),
    );
  }

  @Mutation(() => HoldCaptureType, { description: 'POST /holds/{id}/capture: posts `amount` (default: the whole hold) and releases the rest.' })
  captureHold(
    @Arg('id', () => ID) id: string,
    @Arg('projectId', () => ID) projectId: string,
    @Arg('amount', () => DecimalScalar, { nullable: true }) amount: string | number | null,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Arg('dryRun', () => Boolean, DRY_RUN_ARG) dryRun: boolean | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<{ transaction: TransactionModel; hold: HoldModel }> {
    const options = { dryRun: dryRun === true };
    return idempotent(ctx, 'captureHold', keyOf(idempotencyKey, options), { id, projectId, amount }, async () => {
      const { transaction, hold } = await ctx.services.holds.capture(ctx.principal, id, { projectId: projectIdOf(projectId), amount }, options);
      return { transaction: transactionModel(transaction), hold: holdModel(hold) };
    });
  }

  @Mutation(() => HoldType, { description: 'POST /holds/{id}/void: releases a pending hold.' })
  voidHold(
    @Arg('id', () => ID) id: string,
    @Arg('projectId', () => ID) projectId: string,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<HoldModel> {
    return idempotent(ctx, 'voidHold', idempotencyKey, { id, projectId }, async () =>
      holdModel(await ctx.services.holds.void(ctx.principal, id, { projectId: projectIdOf(projectId) })),
    );
  }
}
