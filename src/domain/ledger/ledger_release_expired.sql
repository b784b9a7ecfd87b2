-- ledger_release_expired: a wallet's pending holds (as sender, in one asset) whose expires_at has
-- passed become `expired`, and stop counting in its balance row's `held`. Returns the amount
-- released (0 when none).
--
-- Called only by the posting routines, with the wallet row already locked (ledger_post locks
-- every wallet of its batch first). Correctness never waits for this: readers already treat a
-- pending hold past its expires_at as expired (status shown `expired`, `updated_at` = its
-- expires_at, not counted in `held`); this only brings the stored rows in line, at the moment a
-- posting needs the funds. `updated_at` is set to expires_at, so the hold reads the same before
-- and after.
--
-- Hook (events, §16): one `hold.expired` event per hold released here belongs in this function.
CREATE OR REPLACE FUNCTION ledger_release_expired(p_project integer, p_wallet uuid, p_asset uuid, p_now timestamp with time zone)
RETURNS bigint LANGUAGE plpgsql AS $fn$
DECLARE
  v_released bigint;
BEGIN
  WITH expired AS (
    UPDATE holds SET status = 'expired', updated_at = expires_at
     WHERE project_id = p_project AND from_wallet_id = p_wallet AND asset_id = p_asset
       AND status = 'pending' AND expires_at <= p_now
    RETURNING amount
  )
  SELECT coalesce(sum(amount), 0) INTO v_released FROM expired;
  IF v_released > 0 THEN
    UPDATE balances SET held = held - v_released WHERE wallet_id = p_wallet AND asset_id = p_asset;
  END IF;
  RETURN v_released;
END
$fn$;
