import type { Database } from '../../src/db/database.js';

export interface FlatHistory {
  /** When the first transaction (the seed) is dated; transfer i (1…n) is dated `start` + i ms. */
  start: Date;
  /** The date of the last transfer. */
  end: Date;
}

/**
 * A long history written by SQL in one go (generate_series), as ledger_post would have written it:
 * a seed of `n` minor units into `system`, then `n` transfers of 1 from `system` to `customer`,
 * one millisecond apart, ending an hour ago — running balances, running counts, balance rows and
 * wallet creation dates consistent. Both wallets must be new (no balance row, no transaction).
 */
export async function insertFlatHistory(db: Database, projectId: number, assetId: string, system: string, customer: string, n: number): Promise<FlatHistory> {
  const end = new Date(Date.now() - 3_600_000);
  const start = new Date(end.getTime() - n);
  await db.transaction(async (tx) => {
    await tx.query(`UPDATE wallets SET created_at = $2::timestamptz - interval '1 day' WHERE id = ANY ($1::uuid[])`, [[system, customer], start]);
    await tx.query(
      `INSERT INTO transactions (project_id, asset_id, kind, from_wallet_id, to_wallet_id, amount, from_balance, to_balance, from_count, to_count, created_at)
       VALUES ($1, $2, 'seed', NULL, $3, $4, NULL, $4, NULL, 1, $5)`,
      [projectId, assetId, system, n, start],
    );
    await tx.query(
      `INSERT INTO transactions (project_id, asset_id, kind, from_wallet_id, to_wallet_id, amount, from_balance, to_balance, from_count, to_count, created_at)
       SELECT $1, $2, 'transfer', $3, $4, 1, $5 - i, i, 1 + i, i, $6::timestamptz + i * interval '1 millisecond'
         FROM generate_series(1, $5::int) AS i ORDER BY i`,
      [projectId, assetId, system, customer, n, start],
    );
    await tx.query(
      `INSERT INTO balances (wallet_id, asset_id, project_id, amount, tx_count) VALUES ($3, $2, $1, 0, $5 + 1), ($4, $2, $1, $5, $5)`,
      [projectId, assetId, system, customer, n],
    );
  });
  await db.query('ANALYZE transactions');
  return { start, end };
}
