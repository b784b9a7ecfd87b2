import { z } from 'zod';
import type { Reply } from '../http/route.js';

/**
 * `?dryRun=true|false` (CONTRACT §24; absent: false, anything else 400) on the six posting
 * routes. The dispatcher ignores Idempotency-Key when it is true (src/http/server.ts).
 */
export const DryRunQuery = z.strictObject({
  dryRun: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true')
    .meta({ description: 'true: every check runs against the current state and the real answer comes back (200, `dryRun: true`), but nothing is written.' }),
});

/** The query of a write route that takes no parameter and no dry run: any parameter is 400, none is ignored. */
export const NoQuery = z.strictObject({});

/** The 200 body of a dry run: the real call's body with `dryRun: true` beside its fields. */
export const dryRunBody = <S extends z.ZodRawShape>(body: z.ZodObject<S>) => body.extend({ dryRun: z.literal(true) });

/** A posting's answer: 201 with `body`, or for a dry run 200 with `dryRun: true` beside its fields. */
export function postedReply(dryRun: boolean, body: Record<string, unknown>): Reply {
  return dryRun ? { status: 200, body: { ...body, dryRun: true } } : { status: 201, body };
}
