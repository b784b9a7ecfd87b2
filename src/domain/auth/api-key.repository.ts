import type { Database } from '../../db/database.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

/**
 * LISTEN/NOTIFY channel of key changes: the payload is the owner whose cached lookups are stale
 * (a plan change, a revoked key). Sent in the transaction of the change, so delivered at its commit.
 */
export const KEY_CHANGES_CHANNEL = 'ledger_api_keys';
/**
 * LISTEN/NOTIFY channel of issued keys: the payload is the new key's digest, which every instance
 * drops from its unknown keys (a try before the commit must not keep the key refused for a minute).
 */
export const KEY_ISSUED_CHANNEL = 'ledger_api_keys_issued';

/** Who a key stands for: its owner and the owner's plan. */
export interface KeyOwner {
  ownerId: string;
  planCode: string;
  subscriptionCode: string;
}

export interface NewKey {
  keyHash: string;
  prefix: string;
  ownerId: string;
  planCode: string;
  subscriptionCode: string;
}

/** A live key as an administrator sees it: never the key or its digest. */
export interface KeyRecord {
  id: string;
  ownerId: string;
  planCode: string;
  /** Null for keys issued before key management (migration 20261123121000): only their digest was kept. */
  prefix: string | null;
  createdAt: Date;
}

/** API keys (stored as digests) and the owner rows they belong to. */
export class ApiKeyRepository {
  constructor(private readonly db: Database) {}

  async ownerOf(keyHash: string): Promise<KeyOwner | null> {
    const [row] = await this.db.query<{ owner_id: string; plan_code: string; subscription_code: string }>(
      `SELECT k.owner_id, o.plan_code, o.subscription_code FROM api_keys k JOIN owners o ON o.id = k.owner_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      [keyHash],
    );
    return row ? { ownerId: row.owner_id, planCode: row.plan_code, subscriptionCode: row.subscription_code } : null;
  }

  /**
   * In one transaction: the owner is created or moved to the key's plan (the plan belongs to the
   * owner), the key stored, and every instance told (KEY_CHANGES_CHANNEL, KEY_ISSUED_CHANNEL) at the commit.
   */
  async insert(key: NewKey): Promise<{ id: string; createdAt: Date }> {
    return this.db.transaction(async (client) => {
      await client.query(
        `INSERT INTO owners (id, plan_code, subscription_code) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET plan_code = EXCLUDED.plan_code,
           updated_at = CASE WHEN owners.plan_code = EXCLUDED.plan_code THEN owners.updated_at ELSE now() END`,
        [key.ownerId, key.planCode, key.subscriptionCode],
      );
      const { rows } = await client.query<{ id: string; created_at: Date }>(
        `INSERT INTO api_keys (key_hash, prefix, owner_id) VALUES ($1, $2, $3) RETURNING id, created_at`,
        [key.keyHash, key.prefix, key.ownerId],
      );
      // The issued digest first: notifications arrive in the order sent, so whoever hears of the owner's change knows the key too.
      await client.query(`SELECT pg_notify($1, $2), pg_notify($3, $4)`, [KEY_ISSUED_CHANNEL, key.keyHash, KEY_CHANGES_CHANNEL, key.ownerId]);
      return { id: rows[0].id, createdAt: new Date(rows[0].created_at) };
    });
  }

  /** The owner's live keys, oldest first, one page; `total` counts them all. */
  async listLive(ownerId: string, limit: number, offset: number): Promise<{ items: KeyRecord[]; total: number }> {
    const rows = await this.db.query<{ id: string; owner_id: string; plan_code: string; prefix: string | null; created_at: Date; total: string }>(
      `SELECT k.id, k.owner_id, o.plan_code, k.prefix, k.created_at, count(*) OVER ()::text AS total
         FROM api_keys k JOIN owners o ON o.id = k.owner_id
        WHERE k.owner_id = $1 AND k.revoked_at IS NULL
        ORDER BY k.created_at, k.id LIMIT $2 OFFSET $3`,
      [ownerId, limit, offset],
    );
    const total = rows.length > 0 ? Number(rows[0].total) : await this.countLive(ownerId);
    return { items: rows.map((r) => ({ id: r.id, ownerId: r.owner_id, planCode: r.plan_code, prefix: r.prefix, createdAt: r.created_at })), total };
  }

  private async countLive(ownerId: string): Promise<number> {
    const [row] = await this.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM api_keys WHERE owner_id = $1 AND revoked_at IS NULL`, [ownerId]);
    return Number(row.n);
  }

  /**
   * Revokes a live key and tells every instance (KEY_CHANGES_CHANNEL), in one statement: answers
   * its id and owner, or null when no live key has that id.
   */
  async revoke(id: string): Promise<{ id: string; ownerId: string } | null> {
    const [row] = await this.db.query<{ id: string; owner_id: string }>(
      `WITH revoked AS (UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id, owner_id)
       SELECT id, owner_id, pg_notify($2, owner_id) FROM revoked`,
      [id, KEY_CHANGES_CHANNEL],
    );
    return row ? { id: row.id, ownerId: row.owner_id } : null;
  }

  async hasAnyKey(): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM api_keys LIMIT 1`);
    return rows.length > 0;
  }
}

/** Sample calls: src/queries/api-key.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
// listLive before insert: with no key yet it shows the count it falls back to
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new ApiKeyRepository(db),
  calls: {
    ownerOf: (r) => r.ownerOf('digest'),
    listLive: (r) => r.listLive(SAMPLE.owner, 20, 0),
    insert: (r) => r.insert({ keyHash: 'digest', prefix: 'lk_00000', ownerId: SAMPLE.owner, planCode: 'free', subscriptionCode: 'free' }),
    revoke: (r) => r.revoke(SAMPLE.id),
    hasAnyKey: (r) => r.hasAnyKey(),
  },
});
