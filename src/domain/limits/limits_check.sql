-- limits_check: the limits a movement or a new hold must keep (CONTRACT §19). Installed by
-- migrate() like ledger_post; called by ledger_move (transfers, batch legs, seeds, captures and
-- the flows' postings) and by holds_create for a new hold, under the posting's wallet locks
-- (ledger_post locks every wallet of its batch first), after the wallets' status was checked and
-- before any funds move. Only called when the asset has limits (assets.limit_count > 0).
--
-- Returns NULL when the movement may go on, else the refusal's detail {limitId, remaining}
-- (remaining in minor units, as text, never below 0) of the first limit it would break: the
-- sender's debit limits first (`p_debit`: not for a capture, whose hold already counted), then
-- the receiver's credit limits (`p_credit`: not for a hold, which credits nobody yet), each
-- oldest first. A limit is broken when used + p_amount > its amount (limits_used).
--
-- Exact under concurrency: used is read under the wallet's row lock, which every posting and
-- hold that moves it holds until commit, on any number of instances; a batch's later legs see its
-- earlier ones (their rows and running totals are already written).
--
-- insufficient_funds comes before limit_exceeded: when a limit would refuse, the sender's
-- available (amount − held, `p_release` being held that this movement releases; expired holds
-- released first, as the debit itself would) is tested, and a movement that funds could not
-- cover is left to the caller's debit to refuse (NULL).
CREATE OR REPLACE FUNCTION limits_check(p_project integer, p_asset uuid, p_from uuid, p_to uuid, p_amount bigint, p_debit boolean, p_credit boolean, p_release bigint, p_now timestamp with time zone) RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
  v_side record;
  v_limit record;
  v_used bigint;
  v_refusal jsonb;
  v_funded boolean;
BEGIN
  <<sides>>
  FOR v_side IN
    SELECT s.wallet, s.direction FROM (VALUES (1, p_from, 'debit', p_debit), (2, p_to, 'credit', p_credit)) s(n, wallet, direction, wanted)
     WHERE s.wanted AND s.wallet IS NOT NULL ORDER BY s.n
  LOOP
    FOR v_limit IN SELECT l.id, l.amount, l.window_seconds FROM limits_applying(v_side.wallet, p_asset, v_side.direction) l LOOP
      v_used := limits_used(p_project, v_side.wallet, p_asset, v_side.direction, v_limit.window_seconds, p_now);
      IF v_used::numeric + p_amount > v_limit.amount THEN
        v_refusal := jsonb_build_object('limitId', v_limit.id, 'remaining', greatest(v_limit.amount - v_used, 0)::text);
        EXIT sides;
      END IF;
    END LOOP;
  END LOOP;
  IF v_refusal IS NULL OR p_from IS NULL THEN
    RETURN v_refusal;
  END IF;
  SELECT b.amount - (b.held - p_release) >= p_amount INTO v_funded FROM balances b WHERE b.wallet_id = p_from AND b.asset_id = p_asset;
  IF v_funded IS NOT TRUE AND holds_release_expired(p_project, p_from, p_asset, p_now) > 0 THEN
    SELECT b.amount - (b.held - p_release) >= p_amount INTO v_funded FROM balances b WHERE b.wallet_id = p_from AND b.asset_id = p_asset;
  END IF;
  RETURN CASE WHEN v_funded THEN v_refusal END;
END
$fn$;
