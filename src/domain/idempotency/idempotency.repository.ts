import type { Database } from '../../db/database.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

/** A stored key: its request's fingerprint and, once answered, the answer. */
export interface StoredKey {
  fingerprint: string;
  status: number | null;
  response: unknown;
}

/** The `idempotency_keys` table: claims with a lease, stored answers, the purge. */
export class IdempotencyRepository {
  constructor(private readonly db: Database) {}

  /**
   * Claims (owner, key) for `leaseSeconds`: a new key, or a claim whose holder died (lease over,
   * no answer) for the same request. Answers the lease's expiry (the claim's token), or null when
   * the key is held or answered already.
   */
  async claim(ownerId: string, key: string, fingerprint: string, leaseSeconds: number): Promise<string | null> {
    const [row] = await this.db.query<{ lease: string }>(
      `INSERT INTO idempotency_keys (owner_id, key, fingerprint, locked_until)
       VALUES ($1, $2, $3, clock_timestamp() + make_interval(secs => $4))
       ON CONFLICT (owner_id, key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, locked_until = EXCLUDED.locked_until, created_at = now()
         WHERE idempotency_keys.status_code IS NULL AND idempotency_keys.locked_until < now()
           AND idempotency_keys.fingerprint = EXCLUDED.fingerprint
       RETURNING locked_until::text AS lease`,
      [ownerId, key, fingerprint, leaseSeconds],
    );
    return row?.lease ?? null;
  }

  async find(ownerId: string, key: string): Promise<StoredKey | null> {
    const [row] = await this.db.query<{ fingerprint: string; status_code: number | null; response: unknown }>(
      `SELECT fingerprint, status_code, response FROM idempotency_keys WHERE owner_id = $1 AND key = $2`,
      [ownerId, key],
    );
    return row ? { fingerprint: row.fingerprint, status: row.status_code, response: row.response } : null;
  }

  /** Stores the answer, only while `lease` is still the claim's token. */
  async storeAnswer(ownerId: string, key: string, lease: string, status: number, body: unknown): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_keys SET status_code = $4, response = $5, locked_until = NULL
        WHERE owner_id = $1 AND key = $2 AND locked_until = $3::timestamptz`,
      [ownerId, key, lease, status, JSON.stringify(body)],
    );
  }

  /** Drops an unanswered claim, only while `lease` is still its token. */
  async release(ownerId: string, key: string, lease: string): Promise<void> {
    await this.db.query(
      `DELETE FROM idempotency_keys WHERE owner_id = $1 AND key = $2 AND status_code IS NULL AND locked_until = $3::timestamptz`,
      [ownerId, key, lease],
    );
  }

  /** Deletes the keys created more than `hours` ago; answers how many. */
  async purgeOlderThan(hours: number): Promise<number> {
    const rows = await this.db.query(`DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1) RETURNING 1`, [hours]);
    return rows.length;
  }
}

/** Sample calls: src/queries/idempotency.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new IdempotencyRepository(db),
  calls: {
    claim: (r) => r.claim(SAMPLE.owner, 'key', 'fingerprint', 30),
    find: (r) => r.find(SAMPLE.owner, 'key'),
    storeAnswer: (r) => r.storeAnswer(SAMPLE.owner, 'key', SAMPLE.at.toISOString(), 200, {}),
    release: (r) => r.release(SAMPLE.owner, 'key', SAMPLE.at.toISOString()),
    purgeOlderThan: (r) => r.purgeOlderThan(24),
  },
});
