import { z } from 'zod';
import { checkInput } from './validation.js';
import { ProjectIdRule } from './ids.js';

/** Offset pagination of the REST lists (CONTRACT §7). */
export interface PageRequest {
  page: number;
  limit: number;
}

export interface Page<T> {
  items: T[];
  total: number;
}

/** Any page ≥ 1 up to the int4 maximum; an offset beyond the data answers an empty page. */
export const PageRules = z.object({
  page: z.number().int().min(1).max(2_147_483_647),
  limit: z.number().int().min(1).max(100),
});

export const offsetOf = ({ page, limit }: PageRequest): number => (page - 1) * limit;

/** Aligns rows found by id with the requested ids (DataLoader order); missing or foreign ids give null. */
export function alignById<K, T extends { id: K }>(ids: readonly K[], rows: readonly T[]): (T | null)[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}

/**
 * Keyset paging of a newest-first list (the GraphQL connections): at most `limit` rows strictly
 * older than `before`, a row's `seq` (commit order, unique, so it is its own tiebreaker: rows of
 * one instant, a batch's legs say, keep a fixed order). A row posted between two pages sorts
 * before the first page and cannot shift the next one, as an offset would (issue 19).
 */
/**
 * A page of a project's seq-numbered stream, oldest first (the events of CONTRACT §16, the
 * journal of §22): `after` a seq — a number, or its digits as text (a GraphQL endCursor); not
 * any text Number() reads ('', ' ', '0x10', '1e3').
 */
export const SeqPageRules = z.object({
  projectId: ProjectIdRule,
  after: z
    .union([z.number(), z.string().regex(/^\d{1,16}$/, 'must be a seq (an integer)').transform(Number)])
    .pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER))
    .default(0),
  limit: z.number().int().min(1).max(100).default(20),
});

export interface KeysetRequest {
  limit: number;
  before: string | null;
}

/** `limit` 0–100 (0: only the total and whether there is anything); `before` a `seq`. */
export const KeysetRules = z.object({
  limit: z.number().int().min(0).max(100),
  before: z.string().regex(/^\d{1,18}$/, 'is not a position in this list').nullable(),
});

/** Either way of paging a newest-first list: by page (REST, CONTRACT §7) or by keyset (GraphQL). */
export type Paging = PageRequest | KeysetRequest;

export const isKeyset = (paging: Paging): paging is KeysetRequest => 'before' in paging;

/** The paging a service was given, checked with the rules of its kind (REST's PageRules or KeysetRules). */
export function checkPaging(paging: Paging): Paging {
  return isKeyset(paging) ? checkInput(KeysetRules, { limit: paging.limit, before: paging.before }) : checkInput(PageRules, { page: paging.page, limit: paging.limit });
}

/** What a repository reads for `paging`: one row more than a keyset page, to tell whether more follow. */
export function windowOf(paging: Paging): { limit: number; offset: number; before: string | null } {
  return isKeyset(paging) ? { limit: paging.limit + 1, offset: 0, before: paging.before } : { limit: paging.limit, offset: offsetOf(paging), before: null };
}

/** The page's rows and whether more follow, from what `windowOf(paging)` read. */
export function pageOf<T>(paging: Paging, rows: T[], total: number): { items: T[]; total: number; hasMore: boolean } {
  if (isKeyset(paging)) return { items: rows.slice(0, paging.limit), total, hasMore: rows.length > paging.limit };
  return { items: rows, total, hasMore: offsetOf(paging) + rows.length < total };
}

/**
 * The one keyset predicate of a newest-first list, in SQL: rows older than `before` (an SQL
 * bigint expression; NULL, no cursor: every row). `seq` is the row's qualified column (t.seq).
 */
export const olderThan = (seq: string, before: string): string => `(${before} IS NULL OR ${seq} < ${before})`;
