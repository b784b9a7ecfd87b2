-- lots_consume: what a debit takes from the wallet's lots (CONTRACT §15). Installed by migrate()
-- like ledger_post. Called by ledger_move after it debited `p_amount` of `p_asset` from
-- `p_wallet` at `p_now`, under the wallet's row lock and after lots_settle(p_now): lots alive at
-- `p_now` (lots_live) are consumed, the one expiring first first; whatever they do not cover comes
-- from the funds without a lot, which are spent last. Points reserved by pending holds (`held`)
-- are not free to spend. Returns the amount taken from lots.
--
-- Cost: the loop reads the wallet's live lots in expiry order from lots_wallet_idx and stops
-- once the amount is covered, so a debit reads the lots it consumes (plus the cursor's
-- read-ahead), not every lot the wallet holds.
CREATE OR REPLACE FUNCTION lots_consume(p_wallet uuid, p_asset uuid, p_amount bigint, p_now timestamp with time zone) RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE
  v_lot record;
  v_left bigint := p_amount;
  v_take bigint;
BEGIN
  FOR v_lot IN
    SELECT l.id, l.remaining - l.held AS free
      FROM lots_live(p_wallet, p_asset, p_now) l
  LOOP
    CONTINUE WHEN v_lot.free <= 0;
    v_take := least(v_lot.free, v_left);
    UPDATE lots SET remaining = remaining - v_take WHERE id = v_lot.id;
    v_left := v_left - v_take;
    EXIT WHEN v_left = 0;
  END LOOP;
  RETURN p_amount - v_left;
END
$fn$;
