import { z } from 'zod';
import { validationError } from '../errors.js';
import { parseInstant } from '../shared/instant.js';
import { checkField } from '../shared/validation.js';
import { AS_OF_FORMAT } from '../ledger/as-of.rules.js';

/** A maturing hold's wait in seconds (CONTRACT §26): a minute to a year. */
export const MatureInRule = z.number().int().min(60).max(31_536_000);
/** `matureAt` must lie at least this far ahead (CONTRACT §26), judged by the serving instance's clock. */
export const MIN_MATURITY_MS = 60_000;

/** When a hold captures itself, as holds_create takes it: seconds after its creation, or an instant. */
export interface Maturity {
  matureIn: number | null;
  matureAt: Date | null;
}

export interface HoldTiming {
  expiresIn?: number | null;
  matureIn?: number | null;
  matureAt?: string | Date | null;
}

/**
 * The timing fields of a new hold (CONTRACT §10, §26 and its clarification): at most one of
 * `expiresIn`, `matureIn`, `matureAt` (an expiring hold never matures); `matureIn` 60–31,536,000
 * seconds; `matureAt` an ISO 8601 instant with its offset, at least 60 s after `now`.
 */
export function checkMaturity(input: HoldTiming, now: Date = new Date()): Maturity {
  if (input.matureIn != null && input.matureAt != null) throw validationError('matureAt', 'give matureIn or matureAt, not both');
  if (input.expiresIn != null && (input.matureIn != null || input.matureAt != null)) {
    throw validationError(input.matureIn != null ? 'matureIn' : 'matureAt', 'a hold either expires (expiresIn) or matures (matureIn, matureAt), not both');
  }
  const matureIn = input.matureIn != null ? checkField('matureIn', MatureInRule, input.matureIn) : null;
  let matureAt: Date | null = null;
  if (input.matureAt != null) {
    matureAt = typeof input.matureAt === 'string' ? parseInstant(input.matureAt) : input.matureAt;
    if (matureAt === null || Number.isNaN(matureAt.getTime())) throw validationError('matureAt', AS_OF_FORMAT);
    if (matureAt.getTime() < now.getTime() + MIN_MATURITY_MS) throw validationError('matureAt', 'must be at least 60 seconds ahead');
    if (matureAt.getUTCFullYear() > 9999) throw validationError('matureAt', 'must be before the year 10000');
  }
  return { matureIn, matureAt };
}
