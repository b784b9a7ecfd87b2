import { Migration } from '@mikro-orm/migrations';

/**
 * Ledger verbs (CONTRACT §10–§13): holds, reversals, references and metadata.
 *
 * - `balances.held`: the sum of the wallet's pending holds as sender in that asset, kept by the
 *   posting routines under the wallet row lock, so `available = amount − held` is one row read.
 *   A hold whose `expires_at` has passed stops counting at that instant: readers subtract such
 *   holds (only when `held > 0`), and the posting routines release them (status `expired`,
 *   `held` decreased) before refusing a debit for lack of funds. CHECK (held <= amount) is the
 *   invariant available ≥ 0 in the stored row (effective held is never more than stored held).
 * - `holds`: one row per hold, project_id leading every index (CONTRACT §9).
 * - transactions gain `reverses` / `reversed_amount` (kept on the original under its lock, never
 *   above its amount), `hold_id` (a capture's hold), `reference`, `metadata` (json, so the
 *   caller's key order is kept). A reversal of a seed goes back to @mint: `to_wallet_id` NULL.
 * - `ledger_references`: one row per used reference of a project, whatever carries it (a
 *   transaction or a hold), so uniqueness across both is one primary key.
 */
export class Migration20261123122000_holds_reversals_references extends Migration {
  override up(): void {
    this.addSql(`ALTER TABLE balances ADD COLUMN held bigint NOT NULL DEFAULT 0`);
    this.addSql(`ALTER TABLE balances ADD CONSTRAINT balances_held_check CHECK (held >= 0 AND held <= amount)`);
    this.addSql(`
      CREATE TABLE holds (
        id uuid PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        project_id integer NOT NULL,
        asset_id uuid NOT NULL,
        from_wallet_id uuid NOT NULL,
        to_wallet_id uuid NOT NULL,
        amount bigint NOT NULL CHECK (amount > 0),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'captured', 'voided', 'expired')),
        captured_amount bigint NOT NULL DEFAULT 0 CHECK (captured_amount >= 0 AND captured_amount <= amount),
        transaction_id uuid,
        expires_at timestamptz(3),
        reference text,
        metadata json,
        request_key text,
        settle_request_key text,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL,
        CHECK ((status = 'captured') = (transaction_id IS NOT NULL))
      )`);
    this.addSql(`CREATE INDEX holds_project_idx ON holds (project_id, seq DESC)`);
    this.addSql(`CREATE INDEX holds_from_idx ON holds (project_id, from_wallet_id, seq DESC)`);
    this.addSql(`CREATE INDEX holds_to_idx ON holds (project_id, to_wallet_id, seq DESC)`);
    this.addSql(`CREATE INDEX holds_pending_idx ON holds (project_id, from_wallet_id, asset_id, expires_at) WHERE status = 'pending'`);
    this.addSql(`CREATE UNIQUE INDEX holds_request_key_idx ON holds (project_id, request_key) WHERE request_key IS NOT NULL`);

    this.addSql(`ALTER TABLE transactions DROP CONSTRAINT IF EXISTS transactions_kind_check`);
    this.addSql(`ALTER TABLE transactions DROP CONSTRAINT IF EXISTS transactions_check`);
    this.addSql(`ALTER TABLE transactions ALTER COLUMN to_wallet_id DROP NOT NULL, ALTER COLUMN to_balance DROP NOT NULL`);
    this.addSql(`
      ALTER TABLE transactions
        ADD COLUMN reverses uuid,
        ADD COLUMN reversed_amount bigint NOT NULL DEFAULT 0,
        ADD COLUMN hold_id uuid,
        ADD COLUMN reference text,
        ADD COLUMN metadata json`);
    this.addSql(`
      ALTER TABLE transactions
        ADD CONSTRAINT transactions_kind_check CHECK (kind IN ('transfer', 'seed', 'capture', 'reversal')),
        ADD CONSTRAINT transactions_seed_check CHECK ((kind = 'seed') = (from_wallet_id IS NULL)),
        ADD CONSTRAINT transactions_receiver_check CHECK ((to_wallet_id IS NULL) = (to_balance IS NULL) AND (to_wallet_id IS NOT NULL OR kind = 'reversal')),
        ADD CONSTRAINT transactions_reversed_check CHECK (reversed_amount >= 0 AND reversed_amount <= amount)`);
    this.addSql(`CREATE INDEX transactions_reverses_idx ON transactions (project_id, reverses) WHERE reverses IS NOT NULL`);
    this.addSql(`
      CREATE TABLE ledger_references (
        project_id integer NOT NULL,
        reference text NOT NULL,
        id uuid NOT NULL,
        PRIMARY KEY (project_id, reference)
      )`);
  }
}
