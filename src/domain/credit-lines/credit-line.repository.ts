import type { Database } from '../../db/database.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';
import type { CreditLineRefusal } from './credit-line.types.js';

/**
 * Credit lines (CONTRACT §28) live on the balance row they bound (`balances.credit_limit`), where
 * every spending rule reads them in the statement that spends (ledger_move's debit, holds_create,
 * limits_check): no posting reads them in a statement of its own.
 */
export class CreditLineRepository {
  constructor(private readonly db: Database) {}

  /**
   * Sets the wallet's line in the asset (minor units, 0 removes it) under the wallet's row lock
   * (FOR NO KEY UPDATE, as ledger_post takes it): a posting on the wallet runs wholly before or
   * after, and so does a close (the status is read under the lock). The asset is held FOR KEY
   * SHARE, against its delete and against a concurrent change that would give it an expiry (both
   * lock it FOR UPDATE; AssetService refuses an expiry on an asset with lines). `credit_bound`
   * (the CHECK's backstop, the migration) becomes the limit, or what is used when that is more.
   */
  async set(projectId: number, walletId: string, assetId: string, limit: bigint): Promise<CreditLineRefusal | null> {
    return this.db.transaction(async (client) => {
      const { rows } = await client.query<{ status: string | null; expiring: boolean | null }>(
        `SELECT (SELECT w.status FROM wallets w WHERE w.project_id = $1 AND w.id = $2 FOR NO KEY UPDATE) AS status,
                (SELECT a.ever_expiring OR a.expires_after_seconds IS NOT NULL FROM assets a WHERE a.id = $3 FOR KEY SHARE) AS expiring`,
        [projectId, walletId, assetId],
      );
      const [{ status, expiring }] = rows;
      if (status === 'closed') return 'wallet_closed';
      if (expiring === null) return 'asset_missing';
      if (expiring) return 'asset_expiring';
      await client.query(
        `INSERT INTO balances (wallet_id, asset_id, project_id, credit_limit, credit_bound) VALUES ($2, $3, $1, $4, $4)
           ON CONFLICT (wallet_id, asset_id) DO UPDATE
             SET credit_limit = excluded.credit_limit, credit_bound = greatest(excluded.credit_limit, balances.held - balances.amount)
           WHERE balances.project_id = $1`,
        [projectId, walletId, assetId, limit.toString()],
      );
      return null;
    });
  }
}

export const SQL_SAMPLES = sqlSamples({
  open: (db) => new CreditLineRepository(db),
  calls: {
    set: (r) => r.set(SAMPLE.projectId, SAMPLE.id, SAMPLE.id, 100n),
  },
});
