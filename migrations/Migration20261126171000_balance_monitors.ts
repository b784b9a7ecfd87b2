import { Migration } from '@mikro-orm/migrations';

/**
 * Balance monitors (CONTRACT §20).
 *
 * `balance_monitors`: a project's thresholds on a currency's `balance` or `available`, of one
 * wallet (`wallet_id`) or of every customer wallet (`wallet_id` NULL); `value` in minor units.
 * The posting routines judge crossings (src/domain/monitors/monitors_crossed.sql) with two index
 * probes per field that changed: the wallet's own monitors, and the project-wide ones, each an
 * index range on `value` between the values before and after the change, so a monitor whose
 * threshold lies outside that range is never read, and another wallet's monitors never.
 *
 * `assets.monitors`: how many monitors watch the currency, kept with every create and delete.
 * ledger_move already reads the asset row; with 0 it skips the judgement entirely, so a ledger
 * without monitors pays nothing per posting.
 *
 * `balance_crossings`: what a crossing saw (the monitor's condition and the values before and
 * after), the subject of its `balance.threshold_crossed` event. The monitor may be deleted later;
 * the event still reads what it said. No foreign keys: written inside postings, which hold the
 * wallets' locks (as the events table).
 */
export class Migration20261126171000_balance_monitors extends Migration {
  override up(): void {
    this.addSql(`
      CREATE TABLE balance_monitors (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        project_id integer NOT NULL REFERENCES projects (id),
        -- deleting a currency (possible only while it has no transaction or hold) takes its monitors with it
        asset_id uuid NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
        wallet_id uuid REFERENCES wallets (id),
        field text NOT NULL CHECK (field IN ('balance', 'available')),
        operator text NOT NULL CHECK (operator IN ('lt', 'lte', 'gt', 'gte')),
        value bigint NOT NULL CHECK (value >= 0),
        created_at timestamptz(3) NOT NULL
      )`);
    this.addSql(`CREATE INDEX balance_monitors_wallet_idx ON balance_monitors (wallet_id, asset_id, field, value) WHERE wallet_id IS NOT NULL`);
    this.addSql(`CREATE INDEX balance_monitors_project_idx ON balance_monitors (project_id, asset_id, field, value) WHERE wallet_id IS NULL`);
    this.addSql(`CREATE INDEX balance_monitors_list_idx ON balance_monitors (project_id, seq)`);
    this.addSql(`ALTER TABLE assets ADD COLUMN monitors integer NOT NULL DEFAULT 0 CHECK (monitors >= 0)`);
    this.addSql(`
      CREATE TABLE balance_crossings (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id integer NOT NULL,
        monitor_id uuid NOT NULL,
        wallet_id uuid NOT NULL,
        asset_id uuid NOT NULL,
        field text NOT NULL,
        operator text NOT NULL,
        value bigint NOT NULL,
        previous bigint NOT NULL,
        current bigint NOT NULL,
        transaction_id uuid,
        hold_id uuid,
        created_at timestamptz(3) NOT NULL
      )`);
    this.addSql(`ALTER TABLE events DROP CONSTRAINT events_type_check`);
    this.addSql(`
      ALTER TABLE events ADD CONSTRAINT events_type_check CHECK (type IN (
        'transaction.posted', 'hold.created', 'hold.captured', 'hold.voided', 'hold.expired', 'wallet.status_changed', 'points.expired',
        'balance.threshold_crossed'))`);
  }

  override down(): void {
    this.addSql(`DELETE FROM events WHERE type = 'balance.threshold_crossed'`);
    this.addSql(`ALTER TABLE events DROP CONSTRAINT events_type_check`);
    this.addSql(`
      ALTER TABLE events ADD CONSTRAINT events_type_check CHECK (type IN (
        'transaction.posted', 'hold.created', 'hold.captured', 'hold.voided', 'hold.expired', 'wallet.status_changed', 'points.expired'))`);
    this.addSql(`DROP TABLE balance_crossings`);
    this.addSql(`ALTER TABLE assets DROP COLUMN monitors`);
    this.addSql(`DROP TABLE balance_monitors`);
  }
}
