import type { Database } from '../../db/database.js';
import type { LotKey, LotRow, SweepRound } from './lot.types.js';

/**
 * A wallet's live lots in one asset (lots_live, lots_live.sql): unexpired (a lot is expired from
 * the instant its `expires_at` passes, whether or not its expiry is posted yet) with something
 * left, earliest expiry first. Read from lots_wallet_idx; spent lots are not in it.
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
         CROSS JOIN LATERAL (
           SELECT l.* FROM lots_live(x.wallet_id, x.asset_id, now()) l LIMIT $3
         ) l
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

  /** One sweeper round: releases the due holds of up to `batchSize` wallets and posts the expiry of up to about `batchSize` due lots (one database transaction). */
  async sweep(batchSize: number): Promise<SweepRound> {
    const [row] = await this.db.query<{ expired: number; released: number; busy: number; full_round: boolean; max_lag_ms: string | null }>(`SELECT * FROM lots_sweep($1)`, [batchSize]);
    return { expired: row.expired, released: row.released, skipped: row.busy, fullRound: row.full_round, maxLagMs: row.max_lag_ms === null ? null : Number(row.max_lag_ms) };
  }
}
