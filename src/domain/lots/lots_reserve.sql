-- lots_reserve: what a new pending hold reserves from the sender's lots (CONTRACT §15, §10).
-- Installed by migrate() like ledger_post. Called by holds_create under the sender's row lock,
-- after lots_settle(p_now) and after it checked the available balance. Lots alive at `p_now`
-- (lots_live) are reserved the one expiring first first (`held`
-- grows; the reservation is recorded in hold_lots); whatever they do not cover is reserved from
-- the funds without a lot. Reserved points do not expire while the hold is pending. Returns the
-- amount reserved from lots.
CREATE OR REPLACE FUNCTION lots_reserve(
  p_hold uuid, p_wallet uuid, p_asset uuid, p_amount bigint, p_now timestamp with time zone
) RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE
  v_lot record;
  v_left bigint := p_amount;
  v_take bigint;
BEGIN
  FOR v_lot IN
    SELECT l.id, l.project_id, l.remaining - l.held AS free
      FROM lots_live(p_wallet, p_asset, p_now) l
  LOOP
    CONTINUE WHEN v_lot.free <= 0;
    v_take := least(v_lot.free, v_left);
    UPDATE lots SET held = held + v_take WHERE id = v_lot.id;
    INSERT INTO hold_lots (hold_id, lot_id, project_id, wallet_id, asset_id, amount) VALUES (p_hold, v_lot.id, v_lot.project_id, p_wallet, p_asset, v_take);
    v_left := v_left - v_take;
    EXIT WHEN v_left = 0;
  END LOOP;
  RETURN p_amount - v_left;
END
$fn$;
