import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, ObjectType, Field, Query, Resolver, Root } from 'type-graphql';
import type { WalletView } from '../../domain/wallets/wallet.types.js';
import type { GraphQLContext } from '../context.js';
import { projectIdOf } from '../ids.js';
import { IDEMPOTENCY_KEY_ARG, idempotent } from '../idempotency.js';
import { checkFirst, offsetCursor, offsetWindow, PageArgs } from '../paging.js';
import { DecimalScalar } from '../scalars.js';
import { toConnection, type Connection } from '../types/connection.js';
import { LimitConnection, LimitDirectionEnum, limitModel, LimitType, LimitUsageType, limitUsageModel, type LimitModel, type LimitUsageModel } from '../types/spending-limit.type.js';
import { WalletType } from '../types/wallet.type.js';

@ObjectType('DeletedLimit', { simpleResolvers: true, description: 'The answer to deleteLimit.' })
class DeletedLimitType {
  @Field(() => ID, { description: 'The deleted limit’s id.' }) id!: string;
  @Field({ description: 'Always true: the limit binds no posting from now on.' }) deleted!: boolean;
}

/** Spending and earning limits (CONTRACT §19): arguments are the REST body's fields; the rules are LimitService's. */
@Resolver(() => LimitType)
export class LimitResolver {
  @Query(() => LimitConnection, { description: "A project's limits, oldest first; with walletId (id or address), that wallet's own limits only. Paged by offset cursors." })
  async limits(
    @Arg('projectId', () => ID, { description: 'The project whose limits are listed (not_found if it is not yours).' }) projectId: string,
    @Arg('walletId', () => String, { nullable: true, description: 'A wallet of the project (id or address): only its own limits.' }) walletId: string | null,
    @Args() { first, after }: PageArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<Connection<LimitModel>> {
    const query = { projectId: projectIdOf(projectId), ...(walletId != null && { walletId }) };
    const window = await offsetWindow(checkFirst(first, ctx.limits.maxPageSize), after, (page) => ctx.services.limits.list(ctx.principal, { ...query, ...page }));
    return toConnection(window, (_, i) => offsetCursor(window.offset, i), limitModel, () => window.total);
  }

  @Mutation(() => LimitType, { description: 'Creates a limit. At most 50 per project (`quota_exceeded`); bad input is `validation_error`, an unknown project, asset or wallet `not_found`.' })
  createLimit(
    @Arg('projectId', () => ID, { description: 'The project the limit belongs to.' }) projectId: string,
    @Arg('currency', { description: 'The asset symbol the limit counts.' }) currency: string,
    @Arg('direction', () => LimitDirectionEnum, { description: 'DEBIT counts money leaving the wallet, CREDIT money arriving.' }) direction: LimitDirectionEnum,
    @Arg('amount', () => DecimalScalar, { description: 'The most the wallet may move in the window, in major units (> 0, at most the asset’s decimals).' }) amount: string | number,
    @Arg('windowSeconds', () => Int, { description: '60 to 2,678,400.' }) windowSeconds: number,
    @Arg('walletId', () => String, { nullable: true, description: 'One wallet of the project (id or address); absent: every customer wallet.' }) walletId: string | null,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<LimitModel> {
    const args = { projectId, currency, direction, amount, windowSeconds, walletId };
    return idempotent(ctx, 'createLimit', idempotencyKey, args, async () =>
      limitModel(await ctx.services.limits.create(ctx.principal, { ...args, projectId: projectIdOf(projectId) })),
    );
  }

  @Mutation(() => DeletedLimitType, { description: 'Deletes a limit: it binds no posting from now on (`not_found` if it is not yours).' })
  deleteLimit(@Arg('id', () => ID, { description: 'The limit’s id.' }) id: string, @Ctx() ctx: GraphQLContext): Promise<DeletedLimitType> {
    // through idempotent() like every mutation, though it takes no key: a header's scope counts it
    return idempotent(ctx, 'deleteLimit', null, { id }, () => ctx.services.limits.delete(ctx.principal, id));
  }
}

@Resolver(() => WalletType)
export class WalletLimitsResolver {
  @FieldResolver(() => [LimitUsageType], { description: 'The limits that apply to the wallet now, for every currency and direction, with what it used and what remains.' })
  async limits(@Root() wallet: WalletView, @Ctx() ctx: GraphQLContext): Promise<LimitUsageModel[]> {
    return (await ctx.loaders.limitUsage.load(wallet.id)).map(limitUsageModel);
  }
}
