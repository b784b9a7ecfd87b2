import type { Principal } from './api-key.service.js';
import type { Plan } from './plans.js';

/** GET /user/plan: the owner, its subscription, and the plan's quotas and flags. */
export type UserPlan = {
  user_id: string;
  plan_code: string;
  subscription_code: string;
  subscription_status: 'active';
} & Omit<Plan, 'code'>;

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
