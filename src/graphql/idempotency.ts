import { LedgerError, validationError, type ErrorCode } from '../domain/errors.js';
import { fingerprint } from '../domain/idempotency/idempotency.service.js';
import { noteMutation } from '../domain/idempotency/request-scope.js';
import { parseJson } from '../http/body.js';
import type { GraphQLContext } from './context.js';

/**
 * A mutation's optional `idempotencyKey`, in the same store as REST's Idempotency-Key (scoped
 * per owner; a key used for a REST request and then for a mutation is a different request: 422).
 * The same mutation with JSON-equal arguments replays the first result — refusals included — and
 * runs nothing again; other arguments: `idempotency_key_reuse`; still running:
 * `idempotency_in_progress`. Every mutation resolves through here (so the header's scope counts them). The result is stored as JSON, and read back through that JSON on
 * the first run too, so a replay resolves exactly like the original.
 */
export async function idempotent<T>(
  ctx: GraphQLContext,
  mutation: string,
  key: string | null | undefined,
  args: unknown,
  run: () => Promise<T>,
  options: { dryRun: boolean } = { dryRun: false },
): Promise<T> {
  // counted in the request's Idempotency-Key header scope, if any: one of dry runs only keeps nothing
  noteMutation(options);
  // a dry run neither reads nor writes an idempotency record: its key is ignored (CONTRACT §24)
  if (key === null || key === undefined || options.dryRun) return run();
  if (key.length < 1 || key.length > 255) throw validationError('idempotencyKey', 'must be 1 to 255 characters');
  // through the exact parser: an inexact number (e.g. in webhook values) keeps all its digits in the fingerprint
  const request = parseJson(JSON.stringify(args ?? null));
  const reply = await ctx.services.idempotency.run(ctx.principal.ownerId, key, fingerprint('GRAPHQL', mutation, request), async () => ({
    status: 200,
    body: JSON.parse(JSON.stringify(await run())) as unknown,
  }));
  if (reply.status >= 400) {
    const body = reply.body as { code: ErrorCode; message: string; details: Record<string, unknown> };
    throw new LedgerError(body.code, body.message, body.details);
  }
  return reply.body as T;
}

/** Every mutation's optional `idempotencyKey` argument. */
export const IDEMPOTENCY_KEY_ARG = {
  nullable: true,
  description:
    'Makes the mutation safe to retry: 1–255 characters, scoped to you, kept at least 24 h. The same mutation with JSON-equal arguments and this key replays the first answer (a refusal included) and runs nothing again; other arguments: `idempotency_key_reuse`; while the first is still running: `idempotency_in_progress`.',
} as const;

/** The `dryRun` argument of the six posting mutations (CONTRACT §24). */
export const DRY_RUN_ARG = {
  nullable: true,
  description:
    'true: every check runs against the current state and the answer is the one the real call would give (a refusal the same error), but nothing is written: its ids are never stored (reading one is `not_found`), no event is sent, and `idempotencyKey` is ignored. Absent or false: a real call.',
} as const;
