-- lots_settle: what must happen to a wallet's lots in one asset before anything else touches it
-- at `p_now` (CONTRACT §15): installed by migrate() like ledger_post, called by ledger_move for
-- both wallets of every movement, by holds_create and holds_void before they create or void a
-- hold, by holds_settle_refusal for a hold found expired, and by the sweeper (lots_sweep). The
-- caller holds the wallet's row lock.
--
-- 1. Holds of the wallet past their expires_at that still reserve lots: each, in the order they
--    expired, is released as of its own expires_at (lots_release: what fell due before it expires
--    first, then the released part of any lot past its expiry, dated the hold's expires_at). The
--    holds themselves are brought in line first (holds_release_expired: status `expired`,
--    `held` decreased).
-- 2. Every lot due at `p_now` expires (lots_expire_due), dated its own expires_at; with `p_limit`,
--    only the first `p_limit` of them (the sweeper's bound on one round; step 1 is never cut short,
--    so whatever expires here is dated after the released parts).
-- Returns how many expiry transactions it posted. Nothing to do costs two index probes.
DROP FUNCTION IF EXISTS lots_settle(integer, uuid, uuid, timestamp with time zone);
CREATE OR REPLACE FUNCTION lots_settle(p_project integer, p_wallet uuid, p_asset uuid, p_now timestamp with time zone, p_limit integer DEFAULT NULL::integer) RETURNS integer
LANGUAGE plpgsql AS $fn$
DECLARE
  v_hold record;
  v_count integer := 0;
  v_released boolean := false;
BEGIN
  IF EXISTS (SELECT 1 FROM hold_lots r WHERE r.wallet_id = p_wallet AND r.asset_id = p_asset) THEN
    FOR v_hold IN
      SELECT DISTINCT h.id, h.expires_at
        FROM hold_lots r JOIN holds h ON h.id = r.hold_id
       WHERE r.wallet_id = p_wallet AND r.asset_id = p_asset AND h.expires_at <= p_now
       ORDER BY h.expires_at, h.id
    LOOP
      IF NOT v_released THEN
        PERFORM holds_release_expired(p_project, p_wallet, p_asset, p_now);
        v_released := true;
      END IF;
      v_count := v_count + lots_release(v_hold.id, p_wallet, p_asset, v_hold.expires_at);
    END LOOP;
  END IF;
  RETURN v_count + lots_expire_due(p_wallet, p_asset, p_now, p_limit);
END
$fn$;
