-- ledger_reverse: the reversal of a transaction (CONTRACT §11), the request kind 'reverse' of
-- ledger_apply, which answered its replays first (ledger_replay) and calls it under the wallet
-- locks of ledger_post (the original's receiver and sender) with the batch's clock reading `p_now`
-- and the id `p_id` the reversal gets (its reference's reservation names it; ledger_apply removes
-- that reservation when the reversal is refused).
--
-- Moves `p_amount` (NULL: all that is left to reverse) back from the original's receiver to its
-- sender through ledger_move (kind `reversal`, `reverses` = the original; a reversal counts 0
-- against limits, §19).
--
-- Outcome codes: 'not_reversible' (missing, a reversal itself, or without a receiving wallet),
-- 'reversal_exceeds' (detail.reversible, minor units), 'reference_taken' (detail.existingId),
-- then those of ledger_move.
--
-- Invariants: the original row is locked; the cap (amount − reversed_amount) is checked before
-- anything else of the movement (so `conflict` comes before `insufficient_funds`), and
-- reversed_amount grows in the same transaction as the reversal. A reversal is not reversible.
CREATE OR REPLACE FUNCTION ledger_reverse(
  p_project integer, p_target uuid, p_amount bigint, p_request text, p_id uuid, p_reference text, p_metadata json,
  p_now timestamp with time zone,
  OUT code text, OUT tx_id uuid, OUT tx_seq bigint, OUT from_balance bigint, OUT to_balance bigint,
  OUT posted_at timestamp with time zone, OUT hold_id uuid, OUT detail jsonb
) RETURNS record LANGUAGE plpgsql AS $fn$
DECLARE
  v_orig transactions%ROWTYPE;
  v_reversible bigint;
  v_amount bigint;
  m record;
BEGIN
  SELECT * INTO v_orig FROM transactions t WHERE t.id = p_target AND t.project_id = p_project FOR UPDATE;
  IF NOT FOUND OR v_orig.reverses IS NOT NULL OR v_orig.to_wallet_id IS NULL THEN
    code := 'not_reversible';
    RETURN;
  END IF;
  v_reversible := v_orig.amount - v_orig.reversed_amount;
  v_amount := coalesce(p_amount, v_reversible);
  IF v_reversible = 0 OR v_amount > v_reversible THEN
    code := 'reversal_exceeds';
    detail := jsonb_build_object('reversible', v_reversible);
    RETURN;
  END IF;
  IF p_reference IS NOT NULL THEN
    detail := ledger_reference_take(p_project, p_reference, p_id);
    IF detail IS NOT NULL THEN
      code := 'reference_taken';
      RETURN;
    END IF;
  END IF;
  SELECT * INTO m FROM ledger_move(p_project, v_orig.asset_id, v_orig.to_wallet_id, v_orig.from_wallet_id, v_amount, 'reversal', p_request,
                                   p_id, p_reference, p_metadata, v_orig.id, NULL, 0, p_now);
  code := m.code;
  IF code <> 'ok' THEN
    detail := m.detail;
    RETURN;
  END IF;
  UPDATE transactions SET reversed_amount = reversed_amount + v_amount WHERE id = v_orig.id;
  tx_id := m.tx_id; tx_seq := m.tx_seq; from_balance := m.from_balance; to_balance := m.to_balance; posted_at := m.posted_at;
END
$fn$;
