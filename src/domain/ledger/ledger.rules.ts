import { z } from 'zod';
import { validationErrors, type FieldProblem } from '../errors.js';

/** Field rules of money movement (CONTRACT §3–§4), shared by the service and the REST schemas. */

/** A wallet id or address (addresses are 1–128 characters). */
export const WalletRefRule = z.string().min(1).max(128);
/** A currency as the caller names it: an asset symbol (1–12 characters; over 64 is malformed, not unknown). */
export const CurrencyRule = z.string().min(1).max(64);

/** Refuses malformed references before any lookup, whatever the transport (400, every field named). */
export function checkReferences(refs: Record<string, string | null | undefined>, currency?: string): void {
  const problems: FieldProblem[] = [];
  for (const [field, value] of Object.entries(refs)) {
    if (value !== null && value !== undefined && !WalletRefRule.safeParse(value).success) problems.push({ field, problem: 'must be a wallet id or address of 1 to 128 characters' });
  }
  if (currency !== undefined && !CurrencyRule.safeParse(currency).success) problems.push({ field: 'currency', problem: 'must be 1 to 64 characters' });
  if (problems.length) throw validationErrors(problems);
}
