-- lots_capture: what a hold's capture takes from the lots it reserved (CONTRACT §15, §10).
-- Installed by migrate() like ledger_post. For the holds of part two: the capture's posting debits
-- the sender by `p_amount` and calls this (instead of lots_consume: a capture spends what its hold
-- reserved, expired lots included, not the sender's free lots), under the sender's row lock. The
-- hold's reservations are consumed the one expiring first first; what they do not cover came from
-- the funds without a lot. The uncaptured rest is then released (lots_release at `p_now`: a
-- released part of a lot already past its expiry expires at that instant). Returns the amount
-- taken from lots.
CREATE OR REPLACE FUNCTION lots_capture(
  p_hold uuid, p_wallet uuid, p_asset uuid, p_amount bigint, p_now timestamp with time zone
) RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE
  v_part record;
  v_left bigint := p_amount;
  v_take bigint;
BEGIN
  FOR v_part IN
    SELECT r.lot_id, r.amount
      FROM hold_lots r JOIN lots l ON l.id = r.lot_id
     WHERE r.hold_id = p_hold AND r.amount > 0
     ORDER BY l.expires_at, l.id
  LOOP
    EXIT WHEN v_left = 0;
    v_take := least(v_part.amount, v_left);
    UPDATE lots SET held = held - v_take, remaining = remaining - v_take WHERE id = v_part.lot_id;
    UPDATE hold_lots SET amount = amount - v_take WHERE hold_id = p_hold AND lot_id = v_part.lot_id;
    v_left := v_left - v_take;
  END LOOP;
  PERFORM lots_release(p_hold, p_wallet, p_asset, p_now);
  RETURN p_amount - v_left;
END
$fn$;
