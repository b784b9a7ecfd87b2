import { createHash } from 'node:crypto';
import type { Database } from '../../db/database.js';
import { LedgerError } from '../errors.js';
import { withRequestKey } from './request-scope.js';
import { toLedgerError } from '../shared/error-translation.js';

export interface StoredReply {
  status: number;
  body: unknown;
}

/** Statuses that are answered but never stored, so a corrected request may reuse the key (CONTRACT §4). */
const NOT_STORED = new Set([400, 401, 413, 415, 429]);
const LEASE_SECONDS = 60;

/**
 * 400, 401, 413, 415, 429 and 5xx are answered but not stored, so a corrected request may reuse
 * the key; so is a GraphQL answer (HTTP 200) that carries an internal_error.
 */
function storable(reply: StoredReply): boolean {
  if (NOT_STORED.has(reply.status) || reply.status >= 500) return false;
  const errors = (reply.body as { errors?: { extensions?: { code?: unknown } }[] } | null)?.errors;
  return !(Array.isArray(errors) && errors.some((e) => e?.extensions?.code === 'internal_error'));
}

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
  constructor(private readonly db: Database) {}

  /**
   * Runs `execute` once per (owner, key). A refusal it throws (a LedgerError other than
   * internal_error) is an answer like any other and is stored and replayed; an unexpected error
   * releases the key and propagates.
   */
  async run(ownerId: string, key: string, print: string, execute: () => Promise<StoredReply>): Promise<StoredReply & { replayed?: boolean }> {
    const lease = await this.claim(ownerId, key, print);
    if (lease === null) {
      const [row] = await this.db.query<{ fingerprint: string; status_code: number | null; response: unknown }>(
        `SELECT fingerprint, status_code, response FROM idempotency_keys WHERE owner_id = $1 AND key = $2`,
        [ownerId, key],
      );
      if (!row) return this.run(ownerId, key, print, execute); // released between our two statements
      if (row.fingerprint !== print) {
        throw new LedgerError('idempotency_key_reuse', 'this Idempotency-Key was used with a different request', { key });
      }
      if (row.status_code === null) {
        throw new LedgerError('idempotency_in_progress', 'a request with this Idempotency-Key is still running', { key });
      }
      return { status: row.status_code, body: row.response, replayed: true };
    }
    let reply: StoredReply;
    try {
      reply = await withRequestKey(requestKey(ownerId, key, print), execute);
    } catch (error) {
      const refusal = toLedgerError(error);
      if (refusal.code === 'internal_error') {
        await this.release(ownerId, key, lease);
        throw error;
      }
      reply = { status: refusal.status, body: refusal.toBody() };
    }
    if (storable(reply)) {
      await this.db.query(
        `UPDATE idempotency_keys SET status_code = $4, response = $5, locked_until = NULL
          WHERE owner_id = $1 AND key = $2 AND locked_until = $3::timestamptz`,
        [ownerId, key, lease, reply.status, JSON.stringify(reply.body)],
      );
    } else {
      await this.release(ownerId, key, lease);
    }
    return reply;
  }

  /** The claim's lease expiry (its token), or null when the key is held or answered already. */
  private async claim(ownerId: string, key: string, print: string): Promise<string | null> {
    const [row] = await this.db.query<{ lease: string }>(
      `INSERT INTO idempotency_keys (owner_id, key, fingerprint, locked_until)
       VALUES ($1, $2, $3, clock_timestamp() + make_interval(secs => $4))
       ON CONFLICT (owner_id, key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, locked_until = EXCLUDED.locked_until, created_at = now()
         WHERE idempotency_keys.status_code IS NULL AND idempotency_keys.locked_until < now()
           AND idempotency_keys.fingerprint = EXCLUDED.fingerprint
       RETURNING locked_until::text AS lease`,
      [ownerId, key, print, LEASE_SECONDS],
    );
    return row?.lease ?? null;
  }

  private async release(ownerId: string, key: string, lease: string): Promise<void> {
    await this.db.query(
      `DELETE FROM idempotency_keys WHERE owner_id = $1 AND key = $2 AND status_code IS NULL AND locked_until = $3::timestamptz`,
      [ownerId, key, lease],
    );
  }

  async purgeExpired(): Promise<number> {
    const rows = await this.db.query(`DELETE FROM idempotency_keys WHERE created_at < now() - interval '48 hours' RETURNING 1`);
    return rows.length;
  }
}
