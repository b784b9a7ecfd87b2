import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, ObjectType, Field, Query, Resolver, Root } from 'type-graphql';
import type { WalletView } from '../../domain/wallets/wallet.types.js';
import type { GraphQLContext } from '../context.js';
import { projectIdOf } from '../ids.js';
import { idempotent } from '../idempotency.js';
import { checkFirst, offsetCursor, offsetWindow, PageArgs } from '../paging.js';
import { DecimalScalar } from '../scalars.js';
import { toConnection, type Connection } from '../types/connection.js';
import { LimitConnection, LimitDirectionEnum, limitModel, LimitType, LimitUsageType, limitUsageModel, type LimitModel, type LimitUsageModel } from '../types/spending-limit.type.js';
import { WalletType } from '../types/wallet.type.js';

@ObjectType('DeletedLimit', { simpleResolvers: true, description: 'DELETE /limits/{id}.' })
class DeletedLimitType {
  @Field(() => ID) id!: string;
  @Field() deleted!: boolean;
}

/** Spending and earning limits (CONTRACT §19): arguments are the REST body's fields; the rules are LimitService's. */
@Resolver(() => LimitType)
export class LimitResolver {
  @Query(() => LimitConnection, { description: "GET /limits: a project's limits, oldest first; walletId (id or address) keeps that wallet's own limits only." })
  async limits(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('walletId', () => String, { nullable: true }) walletId: string | null,
    @Args() { first, after }: PageArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<Connection<LimitModel>> {
    const query = { projectId: projectIdOf(projectId), ...(walletId != null && { walletId }) };
    const window = await offsetWindow(checkFirst(first, ctx.limits.maxPageSize), after, (page) => ctx.services.limits.list(ctx.principal, { ...query, ...page }));
    return toConnection(window, (_, i) => offsetCursor(window.offset, i), limitModel, () => window.total);
  }

  @Mutation(() => LimitType, { description: 'POST /limits: at most 50 per project (quota_exceeded).' })
  createLimit(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('currency') currency: string,
    @Arg('direction', () => LimitDirectionEnum) direction: LimitDirectionEnum,
    @Arg('amount', () => DecimalScalar) amount: string | number,
    @Arg('windowSeconds', () => Int, { description: '60 to 2,678,400.' }) windowSeconds: number,
    @Arg('walletId', () => String, { nullable: true, description: 'One wallet of the project (id or address); absent: every customer wallet.' }) walletId: string | null,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<LimitModel> {
    const args = { projectId, currency, direction, amount, windowSeconds, walletId };
    return idempotent(ctx, 'createLimit', idempotencyKey, args, async () =>
      limitModel(await ctx.services.limits.create(ctx.principal, { ...args, projectId: projectIdOf(projectId) })),
    );
  }

  @Mutation(() => DeletedLimitType, { description: 'DELETE /limits/{id}.' })
  deleteLimit(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<DeletedLimitType> {
    return ctx.services.limits.delete(ctx.principal, id);
  }
}

@Resolver(() => WalletType)
export class WalletLimitsResolver {
  @FieldResolver(() => [LimitUsageType], { description: 'GET /wallets/{id}/limits: the limits that apply to the wallet now, every currency and direction, with used and remaining.' })
  async limits(@Root() wallet: WalletView, @Ctx() ctx: GraphQLContext): Promise<LimitUsageModel[]> {
    return (await ctx.loaders.limitUsage.load(wallet.id)).map(limitUsageModel);
  }
}
