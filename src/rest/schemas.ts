import { z } from 'zod';

/** Shared request/response pieces; every REST schema is strict (unknown fields → 400). */
export const ErrorBody = z
  .object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()) })
  .meta({ id: 'Error' });

export const PlanBody = z
  .object({
    user_id: z.string(),
    plan_code: z.string(),
    subscription_code: z.string(),
    subscription_status: z.string(),
    projects: z.number().int(),
    assets_per_project: z.number().int(),
    customer_wallets: z.number().int(),
    system_wallets: z.number().int(),
    api_calls_per_day: z.number().int(),
    advanced_analytics: z.boolean(),
    custom_branding: z.boolean(),
    priority_support: z.boolean(),
  })
  .meta({ id: 'Plan' });

export const IssueKeyBody = z.strictObject({
  owner: z.string().trim().min(1).max(200),
  plan_code: z.enum(['free', 'starter', 'pro', 'enterprise']),
});

export const IssuedKeyBody = z.object({ api_key: z.string(), owner: z.string(), plan_code: z.string() });

export const HealthBody = z.object({ status: z.string() });
