import type { Database } from '../../db/database.js';
import type { SweepRound } from '../shared/expiry-sweeper.js';
import type { LotKey, LotRow } from './lot.types.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

/**
 * A wallet's live lots in one asset: unexpired (a lot is expired from the instant its
 * `expires_at` passes, whether or not its expiry is posted yet) with something left, earliest
 * expiry first (lots_live.sql). Read from lots_wallet_idx; spent lots are not in it.
 */
export class LotRepository {
  constructor(private readonly db: Database) {}

  /** The live lots of each (wallet, asset), at most `limit` each (null: all), in one statement. */
  async live(keys: readonly LotKey[], limit: number | null): Promise<LotRow[]> {
    if (keys.length === 0) return [];
    const rows = await this.db.query<{ wallet_id: string; asset_id: string; fractions: number; amount: string; remaining: string; expires_at: Date; created_at: Date }>(
      `SELECT x.wallet_id, x.asset_id, a.fractions, l.amount::text, l.remaining::text, l.expires_at, l.created_at
         FROM unnest($1::uuid[], $2::uuid[]) WITH ORDINALITY AS x(wallet_id, asset_id, ord)
         JOIN assets a ON a.id = x.asset_id
         CROSS JOIN LATERAL (SELECT * FROM lots_live(x.wallet_id, x.asset_id, now()) LIMIT $3) l
        ORDER BY x.ord, l.expires_at, l.id`,
      [keys.map((k) => k.walletId), keys.map((k) => k.assetId), limit],
    );
    return rows.map((r) => ({
      walletId: r.wallet_id,
      assetId: r.asset_id,
      fractions: r.fractions,
      amount: BigInt(r.amount),
      remaining: BigInt(r.remaining),
      expiresAt: r.expires_at,
      createdAt: r.created_at,
    }));
  }

  /** The lot half of a sweeper round: posts the expiry of up to about `batchSize` due lots (lots_sweep.sql, one database transaction). */
  async sweep(batchSize: number): Promise<SweepRound> {
    const [row] = await this.db.query<{ expired: number; busy: number; full_round: boolean; max_lag_ms: string | null }>(`SELECT * FROM lots_sweep($1)`, [batchSize]);
    return { expired: row.expired, released: 0, skipped: row.busy, fullRound: row.full_round, maxLagMs: row.max_lag_ms === null ? null : Number(row.max_lag_ms) };
  }
}

/** Sample calls: src/queries/lot.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new LotRepository(db),
  calls: {
    live: (r) => r.live([{ walletId: SAMPLE.id, assetId: SAMPLE.id }], 10),
    sweep: (r) => r.sweep(500),
  },
});
