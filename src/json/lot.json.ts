import { z } from 'zod';
import type { LotRow } from '../domain/lots/lot.types.js';
import { toMajor } from '../domain/money.js';

/** A lot of points that expire together (CONTRACT §15). */
export const LotBody = z
  .object({ amount: z.number(), remaining: z.number(), expires_at: z.string(), created_at: z.string() })
  .meta({ id: 'Lot', description: 'Points credited together, expiring together; remaining includes points reserved by pending holds' });

export function lotJson(lot: LotRow): z.infer<typeof LotBody> {
  return {
    amount: toMajor(lot.amount, lot.fractions),
    remaining: toMajor(lot.remaining, lot.fractions),
    expires_at: lot.expiresAt.toISOString(),
    created_at: lot.createdAt.toISOString(),
  };
}
