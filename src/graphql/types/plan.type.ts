import { Field, Int, ObjectType } from 'type-graphql';
import type { UserPlan } from '../../domain/auth/plan.service.js';

@ObjectType('Plan', {
  simpleResolvers: true,
  description: "The caller's plan: its quotas (creating past one is refused with `quota_exceeded`, `details.quota` naming the field) and feature flags.",
})
export class PlanType {
  @Field({ description: "The caller's user id: the owner of the API key." }) userId!: string;
  @Field({ description: 'The plan: free, starter, pro or enterprise.' }) planCode!: string;
  @Field({ description: "The owner's subscription code, stable per owner (SUB_…)." }) subscriptionCode!: string;
  @Field({ description: 'The subscription status: active.' }) subscriptionStatus!: string;
  @Field(() => Int, { description: 'How many projects the owner may have.' }) projects!: number;
  @Field(() => Int, { description: 'How many assets each project may have.' }) assetsPerProject!: number;
  @Field(() => Int, { description: 'How many customer wallets the owner may have, across projects.' }) customerWallets!: number;
  @Field(() => Int, { description: 'How many system wallets the owner may have, across projects.' }) systemWallets!: number;
  @Field(() => Int, { description: 'Authenticated requests per UTC day (REST and GraphQL together); past it, `rate_limited`.' }) apiCallsPerDay!: number;
  @Field({ description: 'Whether the plan includes advanced analytics.' }) advancedAnalytics!: boolean;
  @Field({ description: 'Whether the plan includes custom branding.' }) customBranding!: boolean;
  @Field({ description: 'Whether the plan includes priority support.' }) prioritySupport!: boolean;

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
