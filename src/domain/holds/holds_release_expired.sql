-- holds_release_expired: a wallet's holds (as sender, in one asset) expired at `p_now`
-- (holds_expired) become `expired`, and stop counting in its balance row's `held`. Returns the
-- amount released (0 when none).
--
-- Called by ledger_move and holds_create (before they refuse a debit or a hold for funds),
-- holds_settle_refusal (a capture or void of an expired hold), lots_settle and lots_sweep, always
-- with the wallet row already locked (ledger_post locks every wallet of its batch first; the
-- sweeper takes it). Correctness never waits for this: readers already treat a hold expired at
-- now as expired (status shown `expired`, `updated_at` = its expires_at, not counted in `held`);
-- this only brings the stored rows in line, at the moment a posting needs the funds.
-- `updated_at` is set to expires_at, so the hold reads the same before and after.
--
-- Events (§16): one `hold.expired` per hold released here, dated its expires_at (the instant it
-- expired), written in the same transaction. Every path that marks a hold expired comes through
-- here (a posting that needs the funds, a capture or void of an expired hold, the sweeper), so
-- the status change and its event happen exactly once.
CREATE OR REPLACE FUNCTION holds_release_expired(p_project integer, p_wallet uuid, p_asset uuid, p_now timestamp with time zone)
RETURNS bigint LANGUAGE plpgsql AS $fn$
DECLARE
  v_released bigint := 0;
  v_hold record;
BEGIN
  FOR v_hold IN
    WITH expired AS (
      UPDATE holds h SET status = 'expired', updated_at = h.expires_at
       WHERE h.project_id = p_project AND h.from_wallet_id = p_wallet AND h.asset_id = p_asset
         AND holds_expired(h, p_now)
      RETURNING h.id, h.amount, h.expires_at
    )
    SELECT * FROM expired ORDER BY expires_at, id
  LOOP
    v_released := v_released + v_hold.amount;
    PERFORM ledger_emit(p_project, 'hold.expired', v_hold.id, NULL, v_hold.expires_at);
    -- monitors (§20): each release crosses `available` on its own; the row's held is written after the loop
    PERFORM monitors_changed(p_project, p_asset, p_wallet, 0, -v_hold.amount, NULL, v_hold.id, v_hold.expires_at, NULL, v_released);
  END LOOP;
  IF v_released > 0 THEN
    UPDATE balances SET held = held - v_released WHERE wallet_id = p_wallet AND asset_id = p_asset;
  END IF;
  RETURN v_released;
END
$fn$;
