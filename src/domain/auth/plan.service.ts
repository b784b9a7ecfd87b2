import type { Principal } from './api-key.service.js';

export interface UserPlan {
  user_id: string;
  plan_code: string;
  subscription_code: string;
  subscription_status: 'active';
  projects: number;
  assets_per_project: number;
  customer_wallets: number;
  system_wallets: number;
  api_calls_per_day: number;
  advanced_analytics: boolean;
  custom_branding: boolean;
  priority_support: boolean;
}

export class PlanService {
  async userPlan(principal: Principal): Promise<UserPlan> {
    const { code, ...quotas } = principal.plan;
    return {
      user_id: principal.ownerId,
      plan_code: code,
      subscription_code: principal.subscriptionCode,
      subscription_status: 'active',
      ...quotas,
    };
  }
}
