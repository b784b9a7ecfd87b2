-- lots_release: gives back what a hold still reserves in lots, when it is voided, expires, or
-- after its capture took its part (CONTRACT §15). Installed by migrate() like ledger_post. Called
-- by holds_void, ledger_move (after a capture) and lots_settle (a hold past its expiry), under
-- the sender's row lock, with `p_at` the instant of the release: the void or capture, or the
-- hold's own `expires_at` when it expires. The released part of a lot already past its
-- `expires_at` at `p_at` expires at that instant: it leaves the wallet in an expiry transaction
-- to `@expired` dated `p_at` (the rest of that lot expired at its own `expires_at`). Lots that fall
-- due after `p_at` are left to lots_expire_due, which dates them at their `expires_at`. Lots due
-- at or before `p_at` are expired first (lots_expire_due at `p_at`), so that a wallet's history
-- never goes back in time: a hold that expired a while ago is released as of its expiry, after
-- the lots that fell due before it and before those that fell due since. Returns how many expiry
-- transactions it posted (both kinds).
CREATE OR REPLACE FUNCTION lots_release(p_hold uuid, p_wallet uuid, p_asset uuid, p_at timestamp with time zone) RETURNS integer
LANGUAGE plpgsql AS $fn$
DECLARE
  v_part record;
  v_balance bigint;
  v_position bigint;
  v_debited bigint; -- limits (§19): an expiry is not counted; its row carries the running total unchanged
  v_tx uuid;
  v_count integer;
BEGIN
  v_count := lots_expire_due(p_wallet, p_asset, p_at);
  FOR v_part IN
    SELECT r.lot_id, r.amount, l.wallet_id, l.asset_id, l.project_id, l.expires_at
      FROM hold_lots r JOIN lots l ON l.id = r.lot_id
     WHERE r.hold_id = p_hold
     ORDER BY l.expires_at, l.id
  LOOP
    DELETE FROM hold_lots WHERE hold_id = p_hold AND lot_id = v_part.lot_id;
    CONTINUE WHEN v_part.amount = 0;
    UPDATE lots SET held = held - v_part.amount WHERE id = v_part.lot_id;
    IF v_part.expires_at <= p_at THEN
      UPDATE lots SET remaining = remaining - v_part.amount WHERE id = v_part.lot_id;
      UPDATE balances SET amount = amount - v_part.amount, tx_count = tx_count + 1
        WHERE wallet_id = v_part.wallet_id AND asset_id = v_part.asset_id
        RETURNING amount, tx_count, debited INTO v_balance, v_position, v_debited;
      ASSERT v_balance >= 0, 'lots_release: a wallet held less than its lots';
      INSERT INTO transactions (project_id, asset_id, kind, from_wallet_id, to_wallet_id, amount, from_balance, to_balance, from_count, to_count, created_at, lot_id, from_debited)
        VALUES (v_part.project_id, v_part.asset_id, 'expiry', v_part.wallet_id, NULL, v_part.amount, v_balance, NULL, v_position, NULL, p_at, v_part.lot_id, v_debited)
        RETURNING id INTO v_tx;
      PERFORM ledger_emit(v_part.project_id, 'points.expired', v_tx, NULL, p_at); -- events (§16), as in lots_expire_due
      PERFORM monitors_changed(v_part.project_id, v_part.asset_id, v_part.wallet_id, -v_part.amount, 0, v_tx, NULL, p_at, v_balance); -- monitors (§20)
      v_count := v_count + 1;
    END IF;
  END LOOP;
  RETURN v_count;
END
$fn$;
