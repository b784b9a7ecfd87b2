-- holds_settle_refusal: why hold `p_hold` (the row its capture or void locked, FOR UPDATE; all
-- NULL when there is none) cannot be settled at `p_now` (CONTRACT §10), or NULL when it can: it
-- is stored `pending` and not expired at `p_now`. Called by holds_capture and holds_void under
-- the sender's wallet lock (ledger_post) and the hold's row lock, so a hold is settled at most once.
--
-- Codes, in this order: 'hold_missing', 'hold_expired' (stored expired), 'hold_not_pending'
-- (captured or voided), 'hold_expired' (expired at p_now, not released yet). The last releases it
-- here, as any posting needing the funds would: the wallet is settled (lots_settle: the lots such
-- holds reserve are released as of their expiry, in date order; a hold marked expired on its own
-- would keep its lots reserved, out of the sweeper's reach), then its expired holds are released
-- (holds_release_expired: status `expired`, `held` decreased, `hold.expired`). That is the state
-- the hold already had, not a posting.
CREATE OR REPLACE FUNCTION holds_settle_refusal(p_hold holds, p_now timestamp with time zone) RETURNS text
LANGUAGE plpgsql AS $fn$
BEGIN
  IF p_hold.id IS NULL THEN
    RETURN 'hold_missing';
  END IF;
  IF p_hold.status = 'expired' THEN
    RETURN 'hold_expired';
  END IF;
  IF p_hold.status <> 'pending' THEN
    RETURN 'hold_not_pending';
  END IF;
  IF holds_expired(p_hold, p_now) THEN
    PERFORM lots_settle(p_hold.project_id, p_hold.from_wallet_id, p_hold.asset_id, p_now);
    PERFORM holds_release_expired(p_hold.project_id, p_hold.from_wallet_id, p_hold.asset_id, p_now);
    RETURN 'hold_expired';
  END IF;
  RETURN NULL;
END
$fn$;
