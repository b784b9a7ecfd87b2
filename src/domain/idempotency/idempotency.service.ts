import { createHash } from 'node:crypto';
import type { IdempotencyRepository } from './idempotency.repository.js';
import { ERROR_STATUS, LedgerError } from '../errors.js';
import { newRequestScope, ranOnlyDryRuns, withRequestScope } from './request-scope.js';
import { toLedgerError } from '../shared/error-translation.js';

export interface StoredReply {
  status: number;
  body: unknown;
}

/** Statuses that are answered but never stored, so a corrected request may reuse the key (CONTRACT §4). */
const NOT_STORED = new Set([400, 401, 413, 415, 429]);
const LEASE_SECONDS = 60;
/** Kept at least 24 h (CONTRACT §4). */
const KEEP_HOURS = 48;

/**
 * 400, 401, 413, 415, 429 and 5xx are answered but not stored, so a corrected request may reuse
 * the key; so is a GraphQL answer (HTTP 200) that carries a 5xx code (internal_error, timeout).
 */
function storable(reply: StoredReply): boolean {
  if (NOT_STORED.has(reply.status) || reply.status >= 500) return false;
  const errors = (reply.body as { errors?: { extensions?: { code?: unknown } }[] } | null)?.errors;
  return !(Array.isArray(errors) && errors.some((e) => serverSide(e?.extensions?.code)));
}

const serverSide = (code: unknown): boolean => typeof code === 'string' && code in ERROR_STATUS && ERROR_STATUS[code as keyof typeof ERROR_STATUS] >= 500;

export function fingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path} ${canonicalJson(body)}`).digest('hex');
}

/** Identifies one idempotent request (owner, key, and what was asked) on the posting it makes. */
export function requestKey(ownerId: string, key: string, print: string): string {
  return createHash('sha256').update(`${ownerId}\u0000${key}\u0000${print}`).digest('hex');
}

/** JSON with object keys sorted, so JSON-equal bodies have one text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Idempotency keys, per owner, in PostgreSQL (kept ≥ 24 h; purged after 48 h). The first request
 * claims the key with a 60 s lease and stores its answer; a claim whose holder died (lease over,
 * no answer) may be taken over by the same request. The lease's expiry is the claim's token: a
 * holder that outlived its lease cannot store or release a claim that was taken over since.
 * Shared by REST and GraphQL mutations; this is the one place that decides what is stored.
 */
export class IdempotencyService {
  constructor(private readonly repository: IdempotencyRepository) {}

  /**
   * Runs `execute` once per (owner, key). A refusal it throws (a LedgerError other than
   * internal_error) is an answer like any other and is stored and replayed; an unexpected error
   * releases the key and propagates.
   */
  async run(ownerId: string, key: string, print: string, execute: () => Promise<StoredReply>): Promise<StoredReply & { replayed?: boolean }> {
    const lease = await this.repository.claim(ownerId, key, print, LEASE_SECONDS);
    if (lease === null) {
      const row = await this.repository.find(ownerId, key);
      if (!row) return this.run(ownerId, key, print, execute); // released between our two statements
      if (row.fingerprint !== print) {
        throw new LedgerError('idempotency_key_reuse', 'this Idempotency-Key was used with a different request', { key });
      }
      if (row.status === null) {
        throw new LedgerError('idempotency_in_progress', 'a request with this Idempotency-Key is still running', { key });
      }
      return { status: row.status, body: row.response, replayed: true };
    }
    let reply: StoredReply;
    const scope = newRequestScope(requestKey(ownerId, key, print));
    try {
      reply = await withRequestScope(scope, execute);
    } catch (error) {
      const refusal = toLedgerError(error);
      if (refusal.code === 'internal_error') {
        await this.repository.release(ownerId, key, lease);
        throw error;
      }
      reply = { status: refusal.status, body: refusal.toBody() };
    }
    // a request of dry runs only wrote nothing, its idempotency record included (CONTRACT §24)
    if (storable(reply) && !ranOnlyDryRuns(scope)) {
      await this.repository.storeAnswer(ownerId, key, lease, reply.status, reply.body);
    } else {
      await this.repository.release(ownerId, key, lease);
    }
    return reply;
  }

  purgeExpired(): Promise<number> {
    return this.repository.purgeOlderThan(KEEP_HOURS);
  }
}
