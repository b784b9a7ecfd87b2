import { z } from 'zod';
import { HOLD_STATUSES, type HoldView } from '../domain/holds/hold.types.js';
import { toMajor } from '../domain/money.js';

/** A hold (CONTRACT §10): the sender's funds reserved for a later capture or void. */
export const HoldBody = z
  .object({
    id: z.string(),
    projectId: z.number().int(),
    amount: z.number().meta({ description: 'The amount reserved at creation (major units).' }),
    currency: z.string(),
    from: z.string(),
    to: z.string(),
    status: z.enum(HOLD_STATUSES).meta({ description: '`expired` from the instant expires_at passes.' }),
    capturedAmount: z.number(),
    transactionId: z.string().nullable().meta({ description: "The capture's transaction." }),
    expires_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    reference: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Hold' });

export function holdJson(hold: HoldView) {
  return {
    id: hold.id,
    projectId: hold.projectId,
    amount: toMajor(hold.amount, hold.fractions),
    currency: hold.symbol,
    from: hold.from,
    to: hold.to,
    status: hold.status,
    capturedAmount: toMajor(hold.capturedAmount, hold.fractions),
    transactionId: hold.transactionId,
    expires_at: hold.expiresAt?.toISOString() ?? null,
    created_at: hold.createdAt.toISOString(),
    updated_at: hold.updatedAt.toISOString(),
    reference: hold.reference,
    metadata: hold.metadata,
  };
}
