import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { QuotaName } from '../auth/plans.js';
import { LedgerError } from '../errors.js';
import { parseInput } from '../validation.js';

/**
 * Services re-check their input with the same zod rules the REST schemas are built from, so a
 * GraphQL (or any other) caller meets exactly the REST rules. Field names are the domain's.
 */
export function checkInput<T>(schema: z.ZodType<T>, input: unknown): T {
  return parseInput(schema, input, 'input');
}

/** One scalar argument (an id, a type), reported under its own name. */
export function checkField<T>(field: string, schema: z.ZodType<T>, value: unknown): T {
  return parseInput(schema, value, field);
}

export const quotaExceeded = (quota: QuotaName, limit: number): LedgerError =>
  new LedgerError('quota_exceeded', `the plan allows at most ${limit} (${quota})`, { quota, limit });

/** The owner's wallets of each type, as counted on the owner row (migration 6; wallets are never deleted). */
export interface OwnerWalletCounts {
  customer: number;
  system: number;
}

/**
 * Serialises the owner's creations (projects, wallets) so that quota checks are exact under
 * concurrency, and reads the wallet counts that only move under this lock. NO KEY UPDATE
 * conflicts with itself but not with the KEY SHARE locks that foreign-key checks take, so it
 * never blocks unrelated inserts.
 */
export async function lockOwner(em: EntityManager, ownerId: string): Promise<OwnerWalletCounts> {
  const [owner] = await em.execute<{ customer: string; system: string }[]>(
    'SELECT customer_wallet_count AS customer, system_wallet_count AS system FROM owners WHERE id = ? FOR NO KEY UPDATE',
    [ownerId],
  );
  return { customer: Number(owner?.customer ?? 0), system: Number(owner?.system ?? 0) };
}

const pgCode = (error: unknown): string | undefined => (error as { code?: string } | null)?.code;
export const isUniqueViolation = (error: unknown): boolean => pgCode(error) === '23505';
export const isForeignKeyViolation = (error: unknown): boolean => pgCode(error) === '23503';
