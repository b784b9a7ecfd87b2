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

/** A posting's or hold's reference (CONTRACT §13): unique per project among transactions and holds. */
export const ReferenceRule = z.string().regex(/^[A-Za-z0-9._:/#-]{1,128}$/, 'must be 1 to 128 of A-Z a-z 0-9 . _ : / # -');
export const MAX_POSTING_METADATA_BYTES = 4 * 1024;
/** A JSON object of at most 4 KiB serialised. */
export const PostingMetadataRule = z
  .record(z.string(), z.unknown())
  .refine((value) => Buffer.byteLength(JSON.stringify(value), 'utf8') <= MAX_POSTING_METADATA_BYTES, `must be a JSON object of at most ${MAX_POSTING_METADATA_BYTES} bytes serialised`);
/** A hold's lifetime in seconds (30 days at most). */
export const ExpiresInRule = z.number().int().min(1).max(2_592_000);

export interface Annotations {
  reference?: string | null;
  metadata?: Record<string, unknown> | null;
}

/** Checks `reference` and `metadata` (any transport), naming fields under `prefix` (batch legs: `transfers.3.`). */
export function checkAnnotations(input: Annotations, prefix = ''): { reference: string | null; metadata: Record<string, unknown> | null } {
  const problems: FieldProblem[] = [];
  if (input.reference != null && !ReferenceRule.safeParse(input.reference).success) problems.push({ field: `${prefix}reference`, problem: 'must be 1 to 128 of A-Z a-z 0-9 . _ : / # -' });
  if (input.metadata != null && !PostingMetadataRule.safeParse(input.metadata).success) problems.push({ field: `${prefix}metadata`, problem: `must be a JSON object of at most ${MAX_POSTING_METADATA_BYTES} bytes serialised` });
  if (problems.length) throw validationErrors(problems);
  const metadata = input.metadata != null && Object.keys(input.metadata).length > 0 ? input.metadata : null;
  return { reference: input.reference ?? null, metadata };
}
