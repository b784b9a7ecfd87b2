import { Migration } from '@mikro-orm/migrations';

/**
 * Balances and histories as of a time (CONTRACT §14), answered from what each transaction row
 * already records, with no scan of a history:
 *
 * - `from_count` / `to_count`: the sender's (receiver's) transaction count in the asset after this
 *   transaction — its position in that wallet's history, the running count beside the running
 *   balance `from_balance` / `to_balance`. A history's total as of an instant is the count on the
 *   last transaction at or before it. `ledger_post` writes them from the balance rows' `tx_count`,
 *   which it moves in the same row update as the amount; the CHECKs make a writer that forgets
 *   them fail instead of leaving a hole. Backfilled here from the history, under the ALTER TABLE's
 *   lock (no posting meanwhile).
 * - `transactions_{from,to}_as_of_idx` on (wallet, asset, created_at, seq): the last transaction of
 *   a wallet in an asset dated at or before an instant is one descent of each index (sent side,
 *   received side), whatever the history's length. They are partial on `created_at > '-infinity'`
 *   (true of every row), a clause only the as-of lookup states (ledger.repository.ts `cutOf`): no
 *   other query implies it, so the planner can never take them for a page of one currency's
 *   history — fetching the whole (wallet, currency) history to sort it, where walking the seq
 *   indexes newest first stops after a page (it did, on a misestimated 10,000-row history).
 */
export class Migration20261123123000_as_of extends Migration {
  override up(): void {
    this.addSql(`ALTER TABLE transactions ADD COLUMN from_count bigint, ADD COLUMN to_count bigint`);
    this.addSql(`
      UPDATE transactions t SET from_count = n.sent, to_count = n.received
        FROM (SELECT id, max(n) FILTER (WHERE sent) AS sent, max(n) FILTER (WHERE NOT sent) AS received
                FROM (SELECT id, sent, row_number() OVER (PARTITION BY wallet_id, asset_id ORDER BY seq) AS n
                        FROM (SELECT id, from_wallet_id AS wallet_id, asset_id, seq, true AS sent FROM transactions WHERE from_wallet_id IS NOT NULL
                              UNION ALL
                              SELECT id, to_wallet_id, asset_id, seq, false FROM transactions WHERE to_wallet_id IS NOT NULL) legs) numbered
               GROUP BY id) n
       WHERE n.id = t.id`);
    this.addSql(`
      ALTER TABLE transactions
        ADD CONSTRAINT transactions_from_count_check CHECK ((from_wallet_id IS NULL) = (from_count IS NULL) AND from_count > 0),
        ADD CONSTRAINT transactions_to_count_check CHECK ((to_wallet_id IS NULL) = (to_count IS NULL) AND to_count > 0)`);
    this.addSql(`CREATE INDEX transactions_from_as_of_idx ON transactions (from_wallet_id, asset_id, created_at, seq) WHERE from_wallet_id IS NOT NULL AND created_at > '-infinity'`);
    this.addSql(`CREATE INDEX transactions_to_as_of_idx ON transactions (to_wallet_id, asset_id, created_at, seq) WHERE to_wallet_id IS NOT NULL AND created_at > '-infinity'`);
  }

  override down(): void {
    this.addSql(`DROP INDEX transactions_from_as_of_idx, transactions_to_as_of_idx`);
    this.addSql(`ALTER TABLE transactions DROP COLUMN from_count, DROP COLUMN to_count`);
  }
}
