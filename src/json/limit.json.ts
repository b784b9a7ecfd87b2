import { z } from 'zod';
import { LIMIT_DIRECTIONS, type LimitUsageView, type LimitView } from '../domain/limits/limit.types.js';
import { toMajor } from '../domain/money.js';

/** A spending or earning limit and its usage (CONTRACT §19). */
const limitFields = {
  id: z.string(),
  projectId: z.number().int(),
  walletId: z.string().nullable().meta({ description: 'null: every customer wallet of the project' }),
  currency: z.string(),
  direction: z.enum(LIMIT_DIRECTIONS),
  amount: z.number(),
  windowSeconds: z.number().int(),
  created_at: z.string(),
};
export const LimitBody = z.object(limitFields).meta({ id: 'Limit' });
export const LimitUsageBody = z
  .object({
    ...limitFields,
    used: z.number().meta({ description: 'Counted movements in the window, plus (debit) pending holds created in it' }),
    remaining: z.number().meta({ description: 'amount − used, never below 0' }),
  })
  .meta({ id: 'LimitUsage' });

export function limitJson(limit: LimitView): z.infer<typeof LimitBody> {
  return {
    id: limit.id,
    projectId: limit.projectId,
    walletId: limit.walletId,
    currency: limit.currency,
    direction: limit.direction,
    amount: toMajor(limit.amount, limit.fractions),
    windowSeconds: limit.windowSeconds,
    created_at: limit.createdAt.toISOString(),
  };
}

export const limitUsageJson = (usage: LimitUsageView): z.infer<typeof LimitUsageBody> => ({
  ...limitJson(usage),
  used: toMajor(usage.used, usage.fractions),
  remaining: toMajor(usage.remaining, usage.fractions),
});
