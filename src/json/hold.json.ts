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
    matures_at: z.string().nullable().meta({ description: 'When a maturing hold (a pending credit) captures itself; null for an ordinary hold. Never set with expires_at.' }),
    created_at: z.string(),
    updated_at: z.string(),
    reference: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Hold' });

/** `hold.captured`'s data (CONTRACT §26): the hold, and whether it was captured at its maturity (true) or by a call (false). */
export const CapturedHoldBody = HoldBody.extend({ matured: z.boolean().meta({ description: 'true: captured by itself at matures_at; false: captured by a call.' }) }).meta({ id: 'CapturedHold' });

/** `hold.maturity_refused`'s data (CONTRACT §26): the hold, still pending, and why its capture at maturity was refused. */
export const MaturityRefusalBody = z
  .object({ hold: HoldBody, code: z.string().meta({ description: 'The refusal, as a capture would answer it: wallet_inactive, limit_exceeded, …' }) })
  .meta({ id: 'MaturityRefusal' });

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
    matures_at: hold.maturesAt?.toISOString() ?? null,
    created_at: hold.createdAt.toISOString(),
    updated_at: hold.updatedAt.toISOString(),
    reference: hold.reference,
    metadata: hold.metadata,
  };
}
