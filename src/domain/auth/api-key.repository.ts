import type { Database } from '../../db/database.js';

/** Who a key stands for: its owner and the owner's plan. */
export interface KeyOwner {
  ownerId: string;
  planCode: string;
  subscriptionCode: string;
}

export interface NewKey {
  keyHash: string;
  ownerId: string;
  planCode: string;
  subscriptionCode: string;
}

/** API keys (stored as digests) and the owner rows they belong to. */
export class ApiKeyRepository {
  constructor(private readonly db: Database) {}

  async ownerOf(keyHash: string): Promise<KeyOwner | null> {
    const [row] = await this.db.query<{ owner_id: string; plan_code: string; subscription_code: string }>(
      `SELECT k.owner_id, o.plan_code, o.subscription_code FROM api_keys k JOIN owners o ON o.id = k.owner_id WHERE k.key_hash = $1`,
      [keyHash],
    );
    return row ? { ownerId: row.owner_id, planCode: row.plan_code, subscriptionCode: row.subscription_code } : null;
  }

  /** In one transaction: the owner is created or moved to the key's plan (the plan belongs to the owner), and the key stored. */
  async insert(key: NewKey): Promise<void> {
    await this.db.transaction(async (client) => {
      await client.query(
        `INSERT INTO owners (id, plan_code, subscription_code) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET plan_code = EXCLUDED.plan_code,
           updated_at = CASE WHEN owners.plan_code = EXCLUDED.plan_code THEN owners.updated_at ELSE now() END`,
        [key.ownerId, key.planCode, key.subscriptionCode],
      );
      await client.query(`INSERT INTO api_keys (key_hash, owner_id) VALUES ($1, $2)`, [key.keyHash, key.ownerId]);
    });
  }

  async hasAnyKey(): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM api_keys LIMIT 1`);
    return rows.length > 0;
  }
}
