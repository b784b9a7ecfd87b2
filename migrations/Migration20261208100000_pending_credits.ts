import { Migration } from '@mikro-orm/migrations';

/**
 * Pending credits: maturing holds (CONTRACT §26, docs/decisions/pending-credits.md).
 *
 * `holds.matures_at`: when a pending hold captures itself (NULL: an ordinary hold); never set
 * together with `expires_at`. `holds.maturity_due_at`: when the maturity sweep next tries the
 * capture (matures_at, then a minute after each refused attempt); `holds.maturity_refused_at`: the
 * first refused attempt (its `hold.maturity_refused` is written then, once; the hold is voided
 * 24 h after it).
 *
 * Indexes, both partial on pending maturing holds, so they hold only the holds still to mature:
 * `holds_maturing_idx` (project, due) is what each project's sweep statement descends;
 * `holds_maturing_due_idx` (due) finds the projects that have due holds at all.
 * `holds_incoming_idx`: `incoming` (pending holds *to* a wallet, read side only) is one
 * index-only descent per balance entry; every pending hold counts, maturing or not. It leads with
 * the receiver, not the project: led by the project, the planner took it for the statements that
 * look up a sender's pending holds (limits_check), as a scan of the project's pending holds; its
 * predicate names the receiver too (always set), which only a statement about the receiver implies,
 * so no other statement can take it. `status` is included because the expiry test (holds_expired) reads it: index-only.
 *
 * `events`: `hold.maturity_refused` joins the closed set of event types; its refusal code is kept
 * in `status` (as wallet.status_changed keeps the new status), and a matured capture's
 * `hold.captured` carries `status = 'matured'`.
 */
export class Migration20261208100000_pending_credits extends Migration {
  override up(): void {
    this.addSql(`ALTER TABLE holds ADD COLUMN matures_at timestamptz(3), ADD COLUMN maturity_due_at timestamptz(3), ADD COLUMN maturity_refused_at timestamptz(3)`);
    this.addSql(`ALTER TABLE holds ADD CONSTRAINT holds_expires_or_matures CHECK (expires_at IS NULL OR matures_at IS NULL)`);
    this.addSql(`ALTER TABLE holds ADD CONSTRAINT holds_maturity_due CHECK ((matures_at IS NULL) = (maturity_due_at IS NULL))`);
    this.addSql(`CREATE INDEX holds_maturing_idx ON holds (project_id, maturity_due_at) WHERE status = 'pending' AND maturity_due_at IS NOT NULL`);
    this.addSql(`CREATE INDEX holds_maturing_due_idx ON holds (maturity_due_at) INCLUDE (project_id) WHERE status = 'pending' AND maturity_due_at IS NOT NULL`);
    this.addSql(`CREATE INDEX holds_incoming_idx ON holds (to_wallet_id, asset_id) INCLUDE (project_id, amount, expires_at, status) WHERE status = 'pending' AND to_wallet_id IS NOT NULL`);
    this.addSql(`ALTER TABLE events DROP CONSTRAINT events_type_check`);
    this.addSql(`
      ALTER TABLE events ADD CONSTRAINT events_type_check CHECK (type IN (
        'transaction.posted', 'hold.created', 'hold.captured', 'hold.voided', 'hold.expired', 'wallet.status_changed', 'points.expired',
        'balance.threshold_crossed', 'hold.maturity_refused'))`);
  }

  override down(): void {
    this.addSql(`DELETE FROM events WHERE type = 'hold.maturity_refused'`);
    this.addSql(`ALTER TABLE events DROP CONSTRAINT events_type_check`);
    this.addSql(`
      ALTER TABLE events ADD CONSTRAINT events_type_check CHECK (type IN (
        'transaction.posted', 'hold.created', 'hold.captured', 'hold.voided', 'hold.expired', 'wallet.status_changed', 'points.expired',
        'balance.threshold_crossed'))`);
    this.addSql(`DROP INDEX holds_incoming_idx, holds_maturing_due_idx, holds_maturing_idx`);
    this.addSql(`ALTER TABLE holds DROP CONSTRAINT holds_maturity_due, DROP CONSTRAINT holds_expires_or_matures`);
    this.addSql(`ALTER TABLE holds DROP COLUMN maturity_refused_at, DROP COLUMN maturity_due_at, DROP COLUMN matures_at`);
  }
}
