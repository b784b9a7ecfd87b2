import type { Database } from '../../db/database.js';
import { ownedBy } from '../ownership/ownership.sql.js';
import type { LimitDirection, LimitUsageView, LimitView } from './limit.types.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

const LIMIT_COLUMNS = `l.id, l.project_id, l.wallet_id, l.asset_id, a.symbol, a.fractions, l.direction, l.amount::text AS amount, l.window_seconds, l.created_at`;

/**
 * Limits (CONTRACT §19): the SQL of their routes. The check itself runs inside the posting
 * routines (limits_check.sql); reads of used call limits_used.sql (the rule of
 * limits_window_used.sql, which the check uses too) and limits_applying.sql, so a wallet's usage
 * reads exactly what a posting would check.
 */
export class LimitRepository {
  constructor(private readonly db: Database) {}

  /**
   * Creates the limit; null when the project has `max` already: counted under the project row's
   * lock, so concurrent creations on any number of instances never pass it together (FOR NO KEY
   * UPDATE does not hold up postings). The asset's `limit_count` moves in the same transaction:
   * from its commit on, every posting in that currency runs the check.
   */
  async insert(row: { projectId: number; walletId: string | null; assetId: string; direction: LimitDirection; amount: bigint; windowSeconds: number }, max: number): Promise<LimitView | null> {
    return this.db.transaction(async (client) => {
      await client.query(`SELECT 1 FROM projects WHERE id = $1 FOR NO KEY UPDATE`, [row.projectId]);
      // a statement of its own: its snapshot is taken once the lock is held
      const { rows: counted } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM limits WHERE project_id = $1`, [row.projectId]);
      if (counted[0].n >= max) return null;
      const { rows } = await client.query<RawLimit>(
        `WITH l AS (
           INSERT INTO limits (project_id, wallet_id, asset_id, direction, amount, window_seconds)
           VALUES ($1, $2, $3, $4, $5, $6) RETURNING *
         ), counted AS (
           UPDATE assets SET limit_count = limit_count + 1 WHERE id = $3
         )
         SELECT ${LIMIT_COLUMNS} FROM l JOIN assets a ON a.id = l.asset_id`,
        [row.projectId, row.walletId, row.assetId, row.direction, row.amount.toString(), row.windowSeconds],
      );
      return toLimit(rows[0]);
    });
  }

  /** A page of a project's limits (one wallet's own when `walletId` is given), oldest first, with the total. */
  async list(projectId: number, walletId: string | null, limit: number, offset: number): Promise<{ rows: LimitView[]; total: number }> {
    const [rows, [count]] = await Promise.all([
      this.db.query<RawLimit>(
        `SELECT ${LIMIT_COLUMNS} FROM limits l JOIN assets a ON a.id = l.asset_id
          WHERE l.project_id = $1 AND ($2::uuid IS NULL OR l.wallet_id = $2) ORDER BY l.seq LIMIT $3 OFFSET $4`,
        [projectId, walletId, limit, offset],
      ),
      this.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM limits WHERE project_id = $1 AND ($2::uuid IS NULL OR wallet_id = $2)`, [projectId, walletId]),
    ]);
    return { rows: rows.map(toLimit), total: Number(count.n) };
  }

  /** Deletes the owner's limit (and uncounts it on its asset); false when it has none by that id. */
  async delete(ownerId: string, id: string): Promise<boolean> {
    const rows = await this.db.query(
      `WITH gone AS (
         DELETE FROM limits l USING projects p WHERE l.id = $1 AND p.id = l.project_id AND ${ownedBy('p', '$2')} RETURNING l.id, l.asset_id
       )
       UPDATE assets a SET limit_count = a.limit_count - 1 FROM gone WHERE a.id = gone.asset_id RETURNING gone.id`,
      [id, ownerId],
    );
    return rows.length > 0;
  }

  /**
   * The limits that apply now to each wallet, with what it used of each (limits_applying.sql,
   * limits_used.sql), oldest first per wallet; one statement for many wallets. `now` is read as
   * a posting reads it (clock, milliseconds).
   */
  async usage(walletIds: readonly string[]): Promise<LimitUsageView[]> {
    if (walletIds.length === 0) return [];
    const rows = await this.db.query<RawLimit & { usage_wallet_id: string; used: string }>(
      `SELECT ${LIMIT_COLUMNS}, w.id AS usage_wallet_id,
              limits_used(l.project_id, w.id, l.asset_id, l.direction, l.window_seconds, clock_timestamp()::timestamptz(3))::text AS used
         FROM unnest($1::uuid[]) WITH ORDINALITY AS w(id, n)
         CROSS JOIN LATERAL limits_applying(w.id, NULL, NULL) l
         JOIN assets a ON a.id = l.asset_id
        ORDER BY w.n, l.seq`,
      [walletIds],
    );
    return rows.map((r) => {
      const limit = toLimit(r);
      const used = BigInt(r.used);
      return { ...limit, usageWalletId: r.usage_wallet_id, used, remaining: used >= limit.amount ? 0n : limit.amount - used };
    });
  }
}

interface RawLimit {
  id: string;
  project_id: number;
  wallet_id: string | null;
  asset_id: string;
  symbol: string;
  fractions: number;
  direction: LimitDirection;
  amount: string;
  window_seconds: number;
  created_at: Date;
}

function toLimit(r: RawLimit): LimitView {
  return {
    id: r.id,
    projectId: r.project_id,
    walletId: r.wallet_id,
    assetId: r.asset_id,
    currency: r.symbol,
    fractions: r.fractions,
    direction: r.direction,
    amount: BigInt(r.amount),
    windowSeconds: r.window_seconds,
    createdAt: new Date(r.created_at),
  };
}

/** Sample calls: src/queries/limit.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new LimitRepository(db),
  calls: {
    insert: (r) => r.insert({ projectId: SAMPLE.projectId, walletId: null, assetId: SAMPLE.id, direction: 'debit', amount: 1n, windowSeconds: 86_400 }, 10),
    list: (r) => r.list(SAMPLE.projectId, SAMPLE.id, 20, 0),
    delete: (r) => r.delete(SAMPLE.owner, SAMPLE.id),
    usage: (r) => r.usage([SAMPLE.id]),
  },
});
