import { Arg, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../context.js';
import { checkFirst } from '../paging.js';
import { lotModel, type BalanceModel, type LotModel } from '../presenters.js';
import { LotType } from '../types/lot.type.js';
import { BalanceType } from '../types/transaction.type.js';

@Resolver(() => BalanceType)
export class BalanceResolver {
  @FieldResolver(() => [LotType], {
    description:
      "The balance's unexpired lots with something left, earliest expiry first (as GET /wallets/{id}/lots): when its points expire. Empty for a system wallet and for an asset that never expires.",
  })
  async expiring(
    @Root() balance: BalanceModel,
    @Arg('first', () => Int, { nullable: true, defaultValue: 10, description: 'How many lots at most, 0 to 100; absent or null: 10.' }) first: number | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<LotModel[]> {
    first = checkFirst(first ?? 10, ctx.limits.maxPageSize);
    return (await ctx.loaders.expiringLots.load({ walletId: balance.walletId, assetId: balance.assetId, first })).map(lotModel);
  }
}
