-- monitors_changed: the one call the routines make after a change of a wallet's balance row in
-- one currency (CONTRACT §20) outside ledger_move: a hold created or voided (holds_create,
-- holds_void), a hold released at its expiry (holds_release_expired), a lot's expiry
-- (lots_expire_due, lots_release). It judges the change (monitors_crossed) and writes each
-- crossing with its event (monitors_record), in monitor order. Installed by migrate() like
-- ledger_post (src/db/routines.ts).
--
-- The caller holds the wallet's row lock (every posting routine does), so the changes of one
-- wallet are judged one at a time in commit order, on any number of instances: each crossing is
-- written exactly once, and only if the change commits (a refused or rolled-back posting, or a
-- dry run, takes its crossings with it).
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
-- `available` = balance − held + credit_limit (§28), as written: a hold counts until its release writes `hold.expired`,
-- and its expiry crosses `available` in that transaction (CONTRACT §20).
--
-- Cost: ONE statement, reading the asset's monitor count (assets.monitors) with the balance row,
-- the wallet's type and the monitors crossed (monitors_crossed, inlined); a currency nobody
-- monitors stops at the asset row, and a change that crosses nothing writes nothing. ledger_move,
-- the hot path, does not call this: it knows both sides' values and judges them in one statement
-- of its own with the same monitors_crossed.
-- Returns how many crossings were written.
CREATE OR REPLACE FUNCTION monitors_changed(
  p_project integer, p_asset uuid, p_wallet uuid, p_amount_delta bigint, p_held_delta bigint, p_tx uuid, p_hold uuid,
  p_at timestamp with time zone, p_balance_after bigint DEFAULT NULL::bigint, p_held_unwritten bigint DEFAULT 0
) RETURNS integer LANGUAGE plpgsql AS $fn$
DECLARE
  v_crossing record;
  v_count integer := 0;
BEGIN
  FOR v_crossing IN
    SELECT c.id, c.field, c.operator, c.value, c.previous, c.current
      FROM assets a
      JOIN balances b ON b.wallet_id = p_wallet AND b.asset_id = a.id
      JOIN wallets w ON w.id = b.wallet_id
      CROSS JOIN LATERAL (SELECT coalesce(p_balance_after, b.amount) AS balance, b.held - p_held_unwritten AS held) v
      CROSS JOIN LATERAL monitors_crossed(p_project, p_asset, p_wallet, w.type = 'customer',
                                          v.balance - p_amount_delta, v.balance,
                                          (v.balance - p_amount_delta) - (v.held - p_held_delta) + b.credit_limit, v.balance - v.held + b.credit_limit) c
     WHERE a.id = p_asset AND a.monitors > 0
     ORDER BY c.seq
  LOOP
    PERFORM monitors_record(p_project, p_asset, p_wallet, v_crossing.id, v_crossing.field, v_crossing.operator, v_crossing.value,
                            v_crossing.previous, v_crossing.current, p_tx, p_hold, p_at);
    v_count := v_count + 1;
  END LOOP;
  RETURN v_count;
END
$fn$;
