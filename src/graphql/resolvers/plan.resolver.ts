import { Ctx, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../context.js';
import { PlanType } from '../types/plan.type.js';

@Resolver()
export class PlanResolver {
  @Query(() => PlanType, { description: "The caller's plan: its quotas and feature flags (as GET /user/plan)." })
  async plan(@Ctx() ctx: GraphQLContext): Promise<PlanType> {
    return PlanType.from(await ctx.services.plans.userPlan(ctx.principal));
  }
}
