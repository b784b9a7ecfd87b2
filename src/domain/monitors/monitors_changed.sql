-- monitors_changed: the one call the posting routines make after a change of a wallet's balance
-- row in one currency (CONTRACT §20): a posting's debit or credit (ledger_move), a hold created
-- or voided (holds_create, holds_void), a hold released at its expiry (holds_release_expired), a lot's expiry
-- (lots_expire_due, lots_release). Installed by migrate() like ledger_post (src/db/routines.ts).
--
-- The caller names the change by its deltas (`p_amount_delta` of the posted balance,
-- `p_held_delta` of `held`) and what it was (`p_tx` the transaction, `p_hold` the hold; NULL when
-- not of that kind, both for a capture). The values after the change are read from the balance
-- row, which the caller has just written, except where the caller knows better:
-- * `p_balance_after`: the posted balance right after this change, when later changes of the same
--   routine moved the row on before the call (ledger_move's capture releases lots after it; a set
--   of expiries is written by one statement);
-- * `p_held_unwritten`: how much `held` the row still counts that this change (and the ones judged
--   before it) already released (holds_release_expired writes its total after the loop).
-- `available` = balance − held, as written: a hold counts until its release writes `hold.expired`,
-- and its expiry crosses `available` in that transaction (CONTRACT §20).
--
-- Cost: one statement reading the asset's monitor count (assets.monitors) with the balance row and
-- the wallet's type; a currency nobody monitors stops there. ledger_move, the hot path, checks the
-- count on the asset row it reads anyway and calls this only when it is not 0.
-- Returns how many crossings were written.
CREATE OR REPLACE FUNCTION monitors_changed(
  p_project integer, p_asset uuid, p_wallet uuid, p_amount_delta bigint, p_held_delta bigint, p_tx uuid, p_hold uuid,
  p_at timestamp with time zone, p_balance_after bigint DEFAULT NULL::bigint, p_held_unwritten bigint DEFAULT 0
) RETURNS integer LANGUAGE plpgsql AS $fn$
DECLARE
  v_row record;
  v_balance bigint;
  v_held bigint;
BEGIN
  SELECT b.amount, b.held, w.type = 'customer' AS customer INTO v_row
    FROM assets a
    JOIN balances b ON b.wallet_id = p_wallet AND b.asset_id = a.id
    JOIN wallets w ON w.id = b.wallet_id
   WHERE a.id = p_asset AND a.monitors > 0;
  IF NOT FOUND THEN
    RETURN 0;
  END IF;
  v_balance := coalesce(p_balance_after, v_row.amount);
  v_held := v_row.held - p_held_unwritten;
  RETURN monitors_judge(p_project, p_asset, p_wallet, v_row.customer,
                        v_balance - p_amount_delta, v_balance,
                        (v_balance - p_amount_delta) - (v_held - p_held_delta), v_balance - v_held,
                        p_tx, p_hold, p_at);
END
$fn$;
