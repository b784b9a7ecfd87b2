import { Migration } from '@mikro-orm/migrations';

/**
 * Points that expire (CONTRACT §15).
 *
 * - `assets.expires_after_seconds`: NULL = never. Read by each credit when it posts, so a change
 *   applies to credits posted after it. `assets.ever_expiring`: it has had an expiry (sticky).
 * - `lots`: one row per credit of an expiring asset to a customer wallet. `remaining` is what is
 *   left of it (pending holds' reservations included); `held` the part of `remaining` that pending
 *   holds reserve (it does not expire while reserved). A wallet's funds without a lot (credited
 *   while the asset had no expiry) are its balance minus the sum of its lots' `remaining`.
 *   Lots and balances of a wallet are written only under that wallet's row lock (ledger_post, the
 *   sweeper), so they never disagree. `hold_lots` records what each pending hold reserved from
 *   which lot (CONTRACT §10 × §15).
 * - An expired lot leaves the wallet in a transaction of kind `expiry` to the reserved address
 *   `@expired`: from the customer wallet to no wallet (`to_wallet_id` and `to_balance` NULL, as a
 *   seed has no `from_wallet_id` and a seed's reversal no receiver), dated the lot's `expires_at`,
 *   `lot_id` naming the lot.
 *
 * Indexes: `lots_wallet_idx` serves a wallet's live lots in expiry order (consumption reads only
 * the lots it consumes, listing reads only live lots: spent lots leave the partial index);
 * `lots_due_idx` serves the sweeper (live lots by `expires_at`). Both are partial on `live`
 * (remaining > 0), a generated column that changes only when a lot is spent, never on the
 * columns a debit changes (`remaining`, `held`): a debit that takes part of a lot is then a HOT
 * update (fillfactor 80 leaves the room), so a wallet spending one large lot many times does not
 * grow the indexes by an entry per debit.
 */
export class Migration20261123125000_point_lots extends Migration {
  override up(): void {
    this.addSql(`ALTER TABLE assets ADD COLUMN expires_after_seconds integer CHECK (expires_after_seconds BETWEEN 1 AND 315360000)`);
    // Set once the asset has had an expiry, never cleared: only then can a wallet hold lots of it,
    // so postings of every other asset skip the lot rules altogether.
    this.addSql(`ALTER TABLE assets ADD COLUMN ever_expiring boolean NOT NULL DEFAULT false, ADD CHECK (expires_after_seconds IS NULL OR ever_expiring)`);
    this.addSql(`
      CREATE TABLE lots (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id integer NOT NULL,
        wallet_id uuid NOT NULL,
        asset_id uuid NOT NULL,
        amount bigint NOT NULL CHECK (amount > 0),
        remaining bigint NOT NULL,
        held bigint NOT NULL DEFAULT 0,
        expires_at timestamptz(3) NOT NULL,
        created_at timestamptz(3) NOT NULL,
        credit_tx_id uuid NOT NULL,
        live boolean GENERATED ALWAYS AS (remaining > 0) STORED,
        CHECK (remaining BETWEEN 0 AND amount),
        CHECK (held BETWEEN 0 AND remaining)
      ) WITH (fillfactor = 80)`);
    this.addSql(`CREATE INDEX lots_wallet_idx ON lots (wallet_id, asset_id, expires_at, id) WHERE live`);
    this.addSql(`CREATE INDEX lots_due_idx ON lots (expires_at) WHERE live`);
    // What each pending hold reserves from each lot (§10 × §15): consumed by its capture, released by its void or expiry.
    this.addSql(`
      CREATE TABLE hold_lots (
        hold_id uuid NOT NULL,
        lot_id bigint NOT NULL,
        project_id integer NOT NULL,
        wallet_id uuid NOT NULL,
        asset_id uuid NOT NULL,
        amount bigint NOT NULL CHECK (amount >= 0),
        PRIMARY KEY (hold_id, lot_id)
      )`);
    // "does this wallet have holds reserving lots?": one probe before a posting touches it
    this.addSql(`CREATE INDEX hold_lots_wallet_idx ON hold_lots (wallet_id, asset_id)`);
    this.addSql(`ALTER TABLE transactions ADD COLUMN lot_id bigint`);
    // The kinds and receivers of migration 122000 (holds, reversals), plus `expiry`: to no wallet
    // (@expired), naming its lot.
    this.addSql(`ALTER TABLE transactions DROP CONSTRAINT transactions_kind_check, DROP CONSTRAINT transactions_receiver_check`);
    this.addSql(`
      ALTER TABLE transactions
        ADD CONSTRAINT transactions_kind_check CHECK (kind IN ('transfer', 'seed', 'capture', 'reversal', 'expiry')),
        ADD CONSTRAINT transactions_receiver_check CHECK ((to_wallet_id IS NULL) = (to_balance IS NULL) AND (to_wallet_id IS NOT NULL OR kind IN ('reversal', 'expiry'))),
        ADD CONSTRAINT transactions_expiry_check CHECK ((kind = 'expiry') = (lot_id IS NOT NULL) AND (kind <> 'expiry' OR to_wallet_id IS NULL))`);
  }

  override down(): void {
    this.addSql(`DELETE FROM transactions WHERE kind = 'expiry'`);
    this.addSql(`ALTER TABLE transactions DROP CONSTRAINT transactions_expiry_check, DROP CONSTRAINT transactions_kind_check, DROP CONSTRAINT transactions_receiver_check`);
    this.addSql(`
      ALTER TABLE transactions
        ADD CONSTRAINT transactions_kind_check CHECK (kind IN ('transfer', 'seed', 'capture', 'reversal')),
        ADD CONSTRAINT transactions_receiver_check CHECK ((to_wallet_id IS NULL) = (to_balance IS NULL) AND (to_wallet_id IS NOT NULL OR kind = 'reversal'))`);
    this.addSql(`ALTER TABLE transactions DROP COLUMN lot_id`);
    this.addSql(`DROP TABLE hold_lots`);
    this.addSql(`DROP TABLE lots`);
    this.addSql(`ALTER TABLE assets DROP COLUMN ever_expiring, DROP COLUMN expires_after_seconds`);
  }
}
