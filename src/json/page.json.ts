import { z } from 'zod';

/** The `pagination` of a numbered page (CONTRACT §7). */
export const PaginationBody = z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), totalPages: z.number().int() }).meta({ id: 'Pagination' });

export function pagination(page: number, limit: number, total: number) {
  return { page, limit, total, totalPages: total === 0 ? 0 : Math.ceil(total / limit) };
}
