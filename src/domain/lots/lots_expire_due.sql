-- lots_expire_due: posts the expiry of the lots of one customer wallet in one asset whose
-- `expires_at` is at or before `p_now` (CONTRACT §15), earliest first, all of them or the first
-- `p_limit`. Installed by migrate() like ledger_post (src/db/routines.ts). Returns how many
-- expiry transactions it posted.
--
-- Called by lots_settle (without a limit, except from the sweeper) and lots_release. The caller
-- holds the wallet's row lock (ledger_post locks every wallet of its batch; the sweeper, lots_sweep,
-- locks the wallet first): lots and balances of a wallet are only written under that lock, so each lot is expired exactly once, whoever gets
-- there first.
--
-- Each due lot's unreserved remainder (`remaining - held`: points a pending hold reserves do not
-- expire while it is pending) leaves the wallet in one transaction of kind `expiry` to `@expired`
-- (no receiving wallet), dated the lot's `expires_at`. Set-based, one statement for all of them:
-- the balance row moves once by their total, and each transaction's `from_balance` and
-- `from_count` are the wallet's balance and transaction count right after it (those after all of
-- them, less what the later ones took and counted), so the running balance chain and the
-- history positions of CONTRACT §14 hold through expiries (and the running total of counted
-- debits of §19, which an expiry carries unchanged); they are inserted in expiry order, so
-- `seq` and dates agree and a wallet's history in one asset never goes back in time.
CREATE OR REPLACE FUNCTION lots_expire_due(p_wallet uuid, p_asset uuid, p_now timestamp with time zone, p_limit integer DEFAULT NULL::integer) RETURNS integer
LANGUAGE plpgsql AS $fn$
DECLARE
  v_expiry record;
  v_count integer := 0;
BEGIN
  -- The common case, a posting on a wallet with nothing due: one index probe.
  PERFORM 1 FROM lots l
    WHERE l.wallet_id = p_wallet AND l.asset_id = p_asset AND lots_due(l, p_now)
    LIMIT 1;
  IF NOT FOUND THEN
    RETURN 0;
  END IF;
  FOR v_expiry IN
    WITH due AS (
      SELECT l.id, l.project_id, l.remaining - l.held AS free, l.expires_at,
             sum(l.remaining - l.held) OVER (ORDER BY l.expires_at, l.id) AS taken,
             row_number() OVER (ORDER BY l.expires_at, l.id) AS n
        FROM lots l
       WHERE l.wallet_id = p_wallet AND l.asset_id = p_asset AND lots_due(l, p_now)
       ORDER BY l.expires_at, l.id
       LIMIT p_limit
    ), total AS (
      SELECT sum(free) AS amount, count(*) AS lots FROM due
    ), spent AS (
      UPDATE lots l SET remaining = l.held FROM due WHERE l.id = due.id
    ), moved AS (
      UPDATE balances b SET amount = b.amount - total.amount, tx_count = b.tx_count + total.lots
        FROM total
       WHERE b.wallet_id = p_wallet AND b.asset_id = p_asset
      RETURNING b.amount AS balance, b.tx_count AS count, b.debited
    )
    INSERT INTO transactions (project_id, asset_id, kind, from_wallet_id, to_wallet_id, amount, from_balance, to_balance, from_count, to_count, created_at, lot_id, from_debited)
    SELECT due.project_id, p_asset, 'expiry', p_wallet, NULL, due.free, moved.balance + total.amount - due.taken, NULL,
           moved.count - total.lots + due.n, NULL, due.expires_at, due.id, moved.debited
      FROM due CROSS JOIN total CROSS JOIN moved
     ORDER BY due.expires_at, due.id
    RETURNING id, project_id, amount, from_balance, created_at
  LOOP
    ASSERT v_expiry.from_balance >= 0, 'lots_expire_due: a wallet held less than its lots';
    -- events (§16): one `points.expired` per expiry transaction, its data that transaction with
    -- the customer's balance (and no `transaction.posted` for it)
    PERFORM ledger_emit(v_expiry.project_id, 'points.expired', v_expiry.id, NULL, v_expiry.created_at);
    PERFORM monitors_changed(v_expiry.project_id, p_asset, p_wallet, -v_expiry.amount, 0, v_expiry.id, NULL, v_expiry.created_at, v_expiry.from_balance); -- monitors (§20)
    v_count := v_count + 1;
  END LOOP;
  RETURN v_count;
END
$fn$;
