import { Field, Int, ObjectType } from 'type-graphql';
import type { UserPlan } from '../../domain/auth/plan.service.js';

@ObjectType('Plan', { simpleResolvers: true, description: "The caller's plan: quotas and feature flags." })
export class PlanType {
  @Field() userId!: string;
  @Field() planCode!: string;
  @Field() subscriptionCode!: string;
  @Field() subscriptionStatus!: string;
  @Field(() => Int) projects!: number;
  @Field(() => Int) assetsPerProject!: number;
  @Field(() => Int) customerWallets!: number;
  @Field(() => Int) systemWallets!: number;
  @Field(() => Int) apiCallsPerDay!: number;
  @Field() advancedAnalytics!: boolean;
  @Field() customBranding!: boolean;
  @Field() prioritySupport!: boolean;

  static from(plan: UserPlan): PlanType {
    return Object.assign(new PlanType(), {
      userId: plan.user_id,
      planCode: plan.plan_code,
      subscriptionCode: plan.subscription_code,
      subscriptionStatus: plan.subscription_status,
      projects: plan.projects,
      assetsPerProject: plan.assets_per_project,
      customerWallets: plan.customer_wallets,
      systemWallets: plan.system_wallets,
      apiCallsPerDay: plan.api_calls_per_day,
      advancedAnalytics: plan.advanced_analytics,
      customBranding: plan.custom_branding,
      prioritySupport: plan.priority_support,
    });
  }
}
