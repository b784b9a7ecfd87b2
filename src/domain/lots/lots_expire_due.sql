-- lots_expire_due: posts the expiry of every lot of one customer wallet in one asset whose
-- `expires_at` is at or before `p_now` (CONTRACT §15). Installed by migrate() like ledger_post
-- (src/db/routines.ts). Returns how many expiry transactions it posted.
--
-- The caller holds the wallet's row lock (ledger_post locks every wallet of its batch; the
-- sweeper, lots_sweep, locks the wallet first): lots and balances of a wallet are only written
-- under that lock, so each lot is expired exactly once, whoever gets there first.
--
-- Each due lot's unreserved remainder (`remaining - held`: points a pending hold reserves do not
-- expire while it is pending) leaves the wallet in one transaction of kind `expiry` to `@expired`
-- (no receiving wallet), dated the lot's `expires_at`, its `from_balance` the wallet's balance
-- after it: the running balance chain holds through expiries. Lots are taken in expiry order, so
-- the dates of a wallet's history in that asset never go backwards.
CREATE OR REPLACE FUNCTION lots_expire_due(p_wallet uuid, p_asset uuid, p_now timestamp with time zone) RETURNS integer
LANGUAGE plpgsql AS $fn$
DECLARE
  v_lot record;
  v_balance bigint;
  v_tx uuid;
  v_count integer := 0;
BEGIN
  FOR v_lot IN
    SELECT l.id, l.project_id, l.remaining - l.held AS free, l.expires_at
      FROM lots l
     WHERE l.wallet_id = p_wallet AND l.asset_id = p_asset AND l.live AND l.expires_at <= p_now
       AND l.remaining > l.held
     ORDER BY l.expires_at, l.id
  LOOP
    UPDATE lots SET remaining = held WHERE id = v_lot.id;
    UPDATE balances SET amount = amount - v_lot.free, tx_count = tx_count + 1
      WHERE wallet_id = p_wallet AND asset_id = p_asset
      RETURNING amount INTO v_balance;
    ASSERT v_balance >= 0, 'lots_expire_due: a wallet held less than its lots';
    INSERT INTO transactions (project_id, asset_id, kind, from_wallet_id, to_wallet_id, amount, from_balance, to_balance, created_at, lot_id)
      VALUES (v_lot.project_id, p_asset, 'expiry', p_wallet, NULL, v_lot.free, v_balance, NULL, v_lot.expires_at, v_lot.id)
      RETURNING id INTO v_tx;
    -- >>> EVENTS (§16): one `points.expired` event per expiry transaction goes HERE, in this
    --     database transaction (and no `transaction.posted` for it), e.g.
    --       PERFORM ledger_emit(v_lot.project_id, 'points.expired', <data>);
    --     <data> = this transaction as REST shows it, `balance` being the customer's:
    --       {id: v_tx, amount: v_lot.free in major units, currency: the asset's symbol,
    --        balance: v_balance in major units, from: the wallet's address, to: '@expired',
    --        date: v_lot.expires_at (ISO 8601, ms, Z)} plus the part-two transaction fields
    --       (reverses null, reversedAmount 0, reference null, metadata {}).
    -- <<< EVENTS
    v_count := v_count + 1;
  END LOOP;
  RETURN v_count;
END
$fn$;
