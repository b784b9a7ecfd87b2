-- lots_capture: what a hold's capture takes from the lots it reserved (CONTRACT §15, §10).
-- Installed by migrate() like ledger_post. ledger_move calls it for a capture (p_hold set) right
-- after the debit of `p_amount`, instead of lots_consume: a capture spends what its hold reserved,
-- expired lots included, not the sender's free lots. The hold's reservations are consumed the one
-- expiring first first; what they do not cover came from the funds without a lot. The uncaptured
-- rest is released by ledger_move after the capture's transaction row (lots_release), so that the
-- expiry of a released part of an expired lot follows the capture in the wallet's history.
-- Returns the amount taken from lots. Under the sender's row lock.
DROP FUNCTION IF EXISTS lots_capture(uuid, uuid, uuid, bigint, timestamp with time zone);
CREATE OR REPLACE FUNCTION lots_capture(p_hold uuid, p_amount bigint) RETURNS bigint
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
  RETURN p_amount - v_left;
END
$fn$;
