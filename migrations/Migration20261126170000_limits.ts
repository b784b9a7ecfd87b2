import { Migration } from '@mikro-orm/migrations';

/**
 * Spending and earning limits (CONTRACT §19).
 *
 * - `limits`: a project's limits, `wallet_id` NULL for the project-wide ones (every customer
 *   wallet). `limits_applying_idx` answers "the limits of this project, currency and direction for
 *   this wallet (or for every customer wallet)" with one descent.
 * - `assets.limit_count`: how many limits name the asset. The posting routine reads it in the
 *   assets row it already reads (ledger_move), so a posting in a currency without limits runs no
 *   limit statement at all.
 * - Running totals of the counted movements (transfers, batch legs, seeds, captures, flows; not
 *   reversals nor expiries), per wallet, currency and direction, as the running balances and
 *   counts of CONTRACT §14: `balances.debited` / `credited` now, and on each transaction row the
 *   sender's `from_debited` and the receiver's `to_credited` after it. What a wallet moved in a
 *   window is the total now minus the total on its last transaction dated at or before the
 *   window's start: one descent of an as-of index, whatever the number of movements in the window.
 *   Every row the posting routines write with a side carries its total (uncounted kinds carry it
 *   unchanged), so the last row before the window's start always answers. No CHECK enforces it:
 *   the benchmarks' baseline and several tests insert transactions by SQL (docs/decisions/limits.md).
 *   Backfilled here from the history in `seq` order, under the ALTER TABLE's lock.
 * - `holds_pending_created_idx`: a wallet's pending holds as sender by creation date, for the
 *   pending holds of a debit limit's used (limits_used.sql: only holds older than the window or
 *   already past their expiry are read, never the ones inside the window).
 * - ledger_move gains `OUT detail` (the refusal's limitId and remaining): a return type cannot be
 *   replaced, so the old one is dropped here and src/domain/ledger/ledger_move.sql reinstalls it.
 */
/** The running totals of the history already posted, in `seq` order (exported for test/db/migration-limits.test.ts). */
export const BACKFILL_TRANSACTIONS = `
      UPDATE transactions t SET from_debited = n.debited, to_credited = n.credited
        FROM (SELECT id, max(total) FILTER (WHERE sent) AS debited, max(total) FILTER (WHERE NOT sent) AS credited
                FROM (SELECT id, sent, sum(counted) OVER (PARTITION BY wallet_id, asset_id, sent ORDER BY seq) AS total
                        FROM (SELECT id, from_wallet_id AS wallet_id, asset_id, seq, true AS sent,
                                     CASE WHEN kind IN ('transfer', 'seed', 'capture') THEN amount ELSE 0 END AS counted
                                FROM transactions WHERE from_wallet_id IS NOT NULL
                              UNION ALL
                              SELECT id, to_wallet_id, asset_id, seq, false,
                                     CASE WHEN kind IN ('transfer', 'seed', 'capture') THEN amount ELSE 0 END
                                FROM transactions WHERE to_wallet_id IS NOT NULL) legs) running
               GROUP BY id) n
       WHERE n.id = t.id`;

export const BACKFILL_BALANCES = `
      UPDATE balances b SET
        debited = coalesce((SELECT sum(t.amount) FROM transactions t WHERE t.from_wallet_id = b.wallet_id AND t.asset_id = b.asset_id
                              AND t.kind IN ('transfer', 'seed', 'capture')), 0),
        credited = coalesce((SELECT sum(t.amount) FROM transactions t WHERE t.to_wallet_id = b.wallet_id AND t.asset_id = b.asset_id
                              AND t.kind IN ('transfer', 'seed', 'capture')), 0)`;

export class Migration20261126170000_limits extends Migration {
  override up(): void {
    this.addSql(`
      CREATE TABLE limits (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        wallet_id uuid REFERENCES wallets (id) ON DELETE CASCADE,
        asset_id uuid NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
        direction text NOT NULL CHECK (direction IN ('debit', 'credit')),
        amount bigint NOT NULL CHECK (amount > 0),
        window_seconds integer NOT NULL CHECK (window_seconds BETWEEN 60 AND 2678400),
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    this.addSql(`CREATE INDEX limits_applying_idx ON limits (project_id, asset_id, direction, wallet_id, seq)`);
    this.addSql(`CREATE INDEX limits_project_idx ON limits (project_id, seq)`);
    this.addSql(`ALTER TABLE assets ADD COLUMN limit_count integer NOT NULL DEFAULT 0 CHECK (limit_count >= 0)`);

    this.addSql(`ALTER TABLE balances ADD COLUMN debited bigint NOT NULL DEFAULT 0, ADD COLUMN credited bigint NOT NULL DEFAULT 0`);
    this.addSql(`ALTER TABLE transactions ADD COLUMN from_debited bigint, ADD COLUMN to_credited bigint`);
    this.addSql(BACKFILL_TRANSACTIONS);
    this.addSql(BACKFILL_BALANCES);
    this.addSql(`CREATE INDEX holds_pending_created_idx ON holds (project_id, from_wallet_id, asset_id, created_at) INCLUDE (amount, expires_at) WHERE status = 'pending'`);
    this.addSql(`DROP FUNCTION IF EXISTS ledger_move(integer, uuid, uuid, uuid, bigint, text, text, uuid, text, json, uuid, uuid, bigint, timestamp with time zone)`);
  }

  override down(): void {
    this.addSql(`DROP INDEX holds_pending_created_idx`);
    this.addSql(`ALTER TABLE transactions DROP COLUMN from_debited, DROP COLUMN to_credited`);
    this.addSql(`ALTER TABLE balances DROP COLUMN debited, DROP COLUMN credited`);
    this.addSql(`ALTER TABLE assets DROP COLUMN limit_count`);
    this.addSql(`DROP TABLE limits`);
  }
}
