DROP FUNCTION IF EXISTS holds_capture(integer, uuid, bigint, text, timestamp with time zone);
-- holds_capture: a pending hold's capture (CONTRACT §10), the request kind 'capture' of
-- ledger_apply, which answered its replays first (ledger_replay: a capture made a transaction) and
-- calls it under the wallet locks of ledger_post with the batch's clock reading `p_now`.
--
-- Posts `p_amount` (NULL: the whole hold; never more than it) from the hold's sender to its
-- receiver through ledger_move, which debits the captured part and releases the whole hold in the
-- same balance row update (p_release), takes the captured part from the lots the hold reserved
-- and releases the rest (lots_capture, lots_release). Then the hold is `captured`, naming its
-- transaction.
--
-- Outcome codes: those of holds_settle_refusal (the hold is locked and checked first), then those
-- of ledger_move ('limit_exceeded' with its detail, 'insufficient_funds', …). Limits (§19): the
-- receiver's credit limits, and the sender's debit limits whose window no longer contains the
-- hold's creation (there the hold stopped counting; limits_check, given the hold). hold_id names the
-- hold whether or not it could be captured. A refusal writes nothing, except the release of a
-- hold found expired (holds_settle_refusal).
--
-- Events (§16): `hold.captured` (ledger_emit) here, `transaction.posted` by ledger_move. A capture
-- at maturity (§26, holds_mature: `p_matured`) stores `matured` in the event's status, which its
-- data shows as `"matured": true` (any other capture: false).
CREATE OR REPLACE FUNCTION holds_capture(
  p_project integer, p_target uuid, p_amount bigint, p_request text, p_now timestamp with time zone, p_matured boolean DEFAULT false,
  OUT code text, OUT tx_id uuid, OUT tx_seq bigint, OUT from_balance bigint, OUT to_balance bigint,
  OUT posted_at timestamp with time zone, OUT hold_id uuid, OUT detail jsonb
) RETURNS record LANGUAGE plpgsql AS $fn$
DECLARE
  v_hold holds%ROWTYPE;
  v_amount bigint;
  m record;
BEGIN
  SELECT * INTO v_hold FROM holds h WHERE h.id = p_target AND h.project_id = p_project FOR UPDATE;
  hold_id := v_hold.id;
  code := holds_settle_refusal(v_hold, p_now);
  IF code IS NOT NULL THEN
    RETURN;
  END IF;
  v_amount := coalesce(p_amount, v_hold.amount);
  ASSERT v_amount > 0 AND v_amount <= v_hold.amount, 'holds_capture: a capture is within its hold';
  SELECT * INTO m FROM ledger_move(p_project, v_hold.asset_id, v_hold.from_wallet_id, v_hold.to_wallet_id, v_amount, 'capture', p_request,
                                   NULL, NULL, NULL, NULL, v_hold.id, v_hold.amount, p_now);
  code := m.code;
  IF code <> 'ok' THEN
    detail := m.detail;
    RETURN;
  END IF;
  UPDATE holds SET status = 'captured', captured_amount = v_amount, transaction_id = m.tx_id,
                   settle_request_key = p_request, updated_at = m.posted_at
    WHERE id = v_hold.id;
  PERFORM ledger_emit(p_project, 'hold.captured', v_hold.id, CASE WHEN p_matured THEN 'matured' END, m.posted_at);
  tx_id := m.tx_id; tx_seq := m.tx_seq; from_balance := m.from_balance; to_balance := m.to_balance; posted_at := m.posted_at;
END
$fn$;
