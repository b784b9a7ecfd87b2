import { z } from 'zod';
import { validationError, type LedgerError } from '../errors.js';
import { parseInstant } from '../shared/instant.js';

/**
 * Reads as of a time (CONTRACT §14): the instant must be written with its offset, must not be in
 * the future (an answer about an instant still to come could change) and must not precede the
 * wallet (it had no state then). Shared by the service and the REST schemas.
 */
export const AS_OF_FORMAT = 'must be an ISO 8601 timestamp with Z or an offset, e.g. 2026-12-31T23:59:59.999Z';

export const notInFuture = (asOf: Date, now: Date = new Date()): boolean => asOf.getTime() <= now.getTime();

/** `asOf` as text: parsed (sub-millisecond digits truncated) and not in the future. */
export const AsOfRule = z
  .string()
  .transform((text, ctx) => parseInstant(text) ?? (ctx.addIssue({ code: 'custom', message: AS_OF_FORMAT }), z.NEVER))
  .refine((asOf) => notInFuture(asOf), 'must not be in the future');

/** The wallet a read as of a time is about: only its birth matters here. */
export interface AsOfWallet {
  id: string;
  createdAt: Date;
}

/** Why `wallet` cannot be read at `asOf`, or null when it can. The future is judged by this instance's clock. */
export function asOfRefusal(asOf: Date, wallet: AsOfWallet, now: Date = new Date()): LedgerError | null {
  if (Number.isNaN(asOf.getTime())) return validationError('asOf', AS_OF_FORMAT);
  if (!notInFuture(asOf, now)) return validationError('asOf', 'must not be in the future');
  if (asOf.getTime() < wallet.createdAt.getTime()) return validationError('asOf', `is before the wallet existed (created ${wallet.createdAt.toISOString()})`);
  return null;
}

export function checkAsOf(asOf: Date, wallet: AsOfWallet): void {
  const refusal = asOfRefusal(asOf, wallet);
  if (refusal) throw refusal;
}
