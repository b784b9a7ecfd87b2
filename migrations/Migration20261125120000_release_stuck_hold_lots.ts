import { Migration } from '@mikro-orm/migrations';

/**
 * Repairs what an earlier version could leave behind (fixed with this migration): a capture or
 * void refused because its hold had expired marked the hold `expired` without releasing the lots
 * it reserved (CONTRACT §15). Those reservations (`hold_lots` rows of a hold no longer pending)
 * kept their points from expiring with the sweeper.
 *
 * Each such hold releases them now, under its wallet's row lock, through lots_release dated now:
 * the released part of a lot already past its expiry leaves the wallet in an expiry transaction
 * dated the repair (the instant the points actually leave; dating it at the hold's expiry would put
 * it behind rows posted since, and a wallet's history never goes back in time). On a database that
 * never had the fault nothing is selected, and the routine is not called (it is installed after
 * the migrations on a new database, hence the dynamic EXECUTE).
 */
export const RELEASE_STUCK_HOLD_LOTS = `
  DO $$
  DECLARE
    v record;
  BEGIN
    FOR v IN
      SELECT DISTINCT r.hold_id, r.wallet_id, r.asset_id
        FROM hold_lots r JOIN holds h ON h.id = r.hold_id
       WHERE h.status <> 'pending'
       ORDER BY r.wallet_id, r.hold_id
    LOOP
      PERFORM 1 FROM wallets WHERE id = v.wallet_id FOR NO KEY UPDATE;
      EXECUTE 'SELECT lots_release($1, $2, $3, clock_timestamp()::timestamptz(3))' USING v.hold_id, v.wallet_id, v.asset_id;
    END LOOP;
  END
  $$`;

export class Migration20261125120000_release_stuck_hold_lots extends Migration {
  override up(): void {
    this.addSql(RELEASE_STUCK_HOLD_LOTS);
  }

  override down(): void {
    // nothing to undo: the released reservations belonged to holds that were no longer pending
  }
}
