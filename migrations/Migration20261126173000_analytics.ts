import { Migration } from '@mikro-orm/migrations';

/**
 * Program analytics (CONTRACT §23): rollups folded just after each commit, off the posting's path.
 *
 * - `analytics_buckets`: one row per project, currency, grain (`hour`, `day`: UTC starts) and
 *   bucket that had a posting: the flows by class (major-unit sums kept as minor units, numeric
 *   so no sum of bigints can overflow), `active_wallets` (how many rows of the bucket's set below)
 *   and `outstanding`, the customers' total balance at the bucket's END (every posting dated
 *   before start + grain), so the liability at any boundary is one index descent. An answer
 *   reads one row per bucket of its own grain (≤ 400) plus one.
 * - `analytics_active_wallets`: the set of customer wallets on either side of a posting, per
 *   bucket: a fold inserts with ON CONFLICT DO NOTHING and counts what it really inserted, so a
 *   day's distinct count stays exact without reading the set again.
 * - `analytics_delta`: one bucket's change in a fold (src/domain/analytics/analytics_fold.sql).
 * - `analytics_postings`: the classes, below.
 *
 * Written only by analytics_fold (called by ledger_sequence_events under the numbering's lock,
 * in the numbering's transaction: each numbered posting is folded exactly once) and by
 * analytics_rebuild (same lock). History numbered before this migration is not folded: run
 * `npm run analytics:rebuild -- --all` once on a ledger that has some (README).
 */
export class Migration20261126173000_analytics extends Migration {
  override up(): void {
    this.addSql(`
      CREATE TABLE analytics_buckets (
        project_id integer NOT NULL,
        asset_id uuid NOT NULL,
        grain text NOT NULL CHECK (grain IN ('hour', 'day')),
        start timestamptz(3) NOT NULL,
        issued numeric NOT NULL DEFAULT 0,
        redeemed numeric NOT NULL DEFAULT 0,
        transferred numeric NOT NULL DEFAULT 0,
        expired numeric NOT NULL DEFAULT 0,
        reversed numeric NOT NULL DEFAULT 0,
        active_wallets integer NOT NULL DEFAULT 0,
        outstanding numeric NOT NULL,
        PRIMARY KEY (project_id, asset_id, grain, start)
      )`);
    this.addSql(`
      CREATE TABLE analytics_active_wallets (
        project_id integer NOT NULL,
        asset_id uuid NOT NULL,
        grain text NOT NULL,
        start timestamptz(3) NOT NULL,
        wallet_id uuid NOT NULL,
        PRIMARY KEY (project_id, asset_id, grain, start, wallet_id)
      )`);
    this.addSql(`
      CREATE TYPE analytics_delta AS (
        project_id integer, asset_id uuid, grain text, start timestamptz,
        issued numeric, redeemed numeric, transferred numeric, expired numeric, reversed numeric,
        net numeric, wallets integer
      )`);
    // analytics_postings: every transaction as program analytics classify it (CONTRACT §23), the ONE
    // place the classes are written; analytics_fold (each numbered batch) and analytics_rebuild (a
    // whole project) both read it, so an incremental fold and a rebuild cannot disagree on a class.
    //
    // Classes by the parties' wallet types (a reversal counts by its own parties, like any posting,
    // and also in `reversed`):
    //   issued      = system wallet or @mint (a seed) -> customer wallet
    //   redeemed    = customer -> system
    //   transferred = customer -> customer
    //   expired     = customer -> @expired (kind `expiry`, no receiving wallet)
    //   reversed    = the amount of every reversal, whatever its parties
    // The other pairs (@mint -> system, system -> system, system -> @mint: a reversed seed) move no
    // customer balance and fall in no class. Seeds go to system wallets only (CONTRACT §4), so every
    // change of a customer balance is issued, redeemed or expired: `net` = issued - redeemed - expired
    // is exactly the change of the customers' total, which makes the identity
    // outstanding(until) - outstanding(since) = issued - redeemed - expired hold by construction.
    this.addSql(`
      CREATE OR REPLACE VIEW analytics_postings AS
      SELECT t.id, t.project_id, t.asset_id, t.created_at,
             CASE WHEN fw.type = 'customer' THEN t.from_wallet_id END AS from_customer,
             CASE WHEN tw.type = 'customer' THEN t.to_wallet_id END AS to_customer,
             CASE WHEN tw.type = 'customer' AND (t.from_wallet_id IS NULL OR fw.type = 'system') THEN t.amount ELSE 0 END AS issued,
             CASE WHEN fw.type = 'customer' AND tw.type = 'system' THEN t.amount ELSE 0 END AS redeemed,
             CASE WHEN fw.type = 'customer' AND tw.type = 'customer' THEN t.amount ELSE 0 END AS transferred,
             CASE WHEN fw.type = 'customer' AND t.kind = 'expiry' THEN t.amount ELSE 0 END AS expired,
             CASE WHEN t.kind = 'reversal' THEN t.amount ELSE 0 END AS reversed
        FROM transactions t
        LEFT JOIN wallets fw ON fw.id = t.from_wallet_id
        LEFT JOIN wallets tw ON tw.id = t.to_wallet_id`);
  }

  override down(): void {
    this.addSql(`DROP VIEW analytics_postings`);
    this.addSql(`DROP TYPE analytics_delta`);
    this.addSql(`DROP TABLE analytics_active_wallets`);
    this.addSql(`DROP TABLE analytics_buckets`);
  }
}
