import { createHash } from 'node:crypto';
import type { Database } from '../../db/database.js';
import { LedgerError } from '../errors.js';
import { withRequestKey } from './request-scope.js';

export interface StoredReply {
  status: number;
  body: unknown;
}

/** Statuses that are answered but never stored, so a corrected request may reuse the key (CONTRACT §4). */
const NOT_STORED = new Set([400, 401, 413, 415, 429]);
const LEASE_SECONDS = 60;

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
 * no answer) may be taken over. Shared by REST and GraphQL mutations.
 */
export class IdempotencyService {
  constructor(private readonly db: Database) {}

  async run(ownerId: string, key: string, print: string, execute: () => Promise<StoredReply>): Promise<StoredReply & { replayed?: boolean }> {
    const claimed = await this.claim(ownerId, key, print);
    if (!claimed) {
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
      await this.release(ownerId, key);
      throw error;
    }
    if (NOT_STORED.has(reply.status) || reply.status >= 500) {
      await this.release(ownerId, key);
    } else {
      await this.db.query(
        `UPDATE idempotency_keys SET status_code = $3, response = $4, locked_until = NULL WHERE owner_id = $1 AND key = $2`,
        [ownerId, key, reply.status, JSON.stringify(reply.body)],
      );
    }
    return reply;
  }

  /** Stores an error answer produced by `execute` as a thrown LedgerError. */
  static errorReply(error: LedgerError): StoredReply {
    return { status: error.status, body: error.toBody() };
  }

  private async claim(ownerId: string, key: string, print: string): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO idempotency_keys (owner_id, key, fingerprint, locked_until)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4))
       ON CONFLICT (owner_id, key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, locked_until = EXCLUDED.locked_until, created_at = now()
         WHERE idempotency_keys.status_code IS NULL AND idempotency_keys.locked_until < now()
           AND idempotency_keys.fingerprint = EXCLUDED.fingerprint
       RETURNING 1`,
      [ownerId, key, print, LEASE_SECONDS],
    );
    return rows.length > 0;
  }

  private async release(ownerId: string, key: string): Promise<void> {
    await this.db.query(`DELETE FROM idempotency_keys WHERE owner_id = $1 AND key = $2 AND status_code IS NULL`, [ownerId, key]);
  }

  async purgeExpired(): Promise<number> {
    const rows = await this.db.query(`DELETE FROM idempotency_keys WHERE created_at < now() - interval '48 hours' RETURNING 1`);
    return rows.length;
  }
}
