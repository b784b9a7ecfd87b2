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

/**
 * Serialises the owner's creations (projects, wallets) so that count-then-insert quotas are exact
 * under concurrency. NO KEY UPDATE conflicts with itself but not with the KEY SHARE locks that
 * foreign-key checks take, so it never blocks unrelated inserts.
 */
export async function lockOwner(em: EntityManager, ownerId: string): Promise<void> {
  await em.execute('SELECT 1 FROM owners WHERE id = ? FOR NO KEY UPDATE', [ownerId]);
}

const pgCode = (error: unknown): string | undefined => (error as { code?: string } | null)?.code;
export const isUniqueViolation = (error: unknown): boolean => pgCode(error) === '23505';
export const isForeignKeyViolation = (error: unknown): boolean => pgCode(error) === '23503';
