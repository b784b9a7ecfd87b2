import { z } from 'zod';

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
