-- holds_void: a pending hold's void (CONTRACT §10), the request kind 'void' of ledger_apply,
-- which calls it under the wallet locks of ledger_post with the batch's clock reading `p_now`.
--
-- The hold stops counting in its sender's `held` and becomes `voided`; no money moves and no
-- transaction is written. Lots (§15): the sender is settled, then what the hold reserved is
-- released (lots_release: the released part of a lot already past its expiry expires now).
--
-- Outcome codes: 'ok' (hold_id, posted_at = the void's instant, from_balance), or those of
-- holds_settle_refusal (the hold is locked and checked first). Replays first: a request key that
-- already voided this hold answers 'ok' again (hold_id, posted_at) and writes nothing. A refusal
-- writes nothing, except the release of a hold found expired (holds_settle_refusal).
--
-- Events (§16): `hold.voided` (ledger_emit). Monitors (§20): the sender's `available` moves
-- (monitors_changed).
CREATE OR REPLACE FUNCTION holds_void(
  p_project integer, p_target uuid, p_request text, p_now timestamp with time zone,
  OUT code text, OUT tx_id uuid, OUT tx_seq bigint, OUT from_balance bigint, OUT to_balance bigint,
  OUT posted_at timestamp with time zone, OUT hold_id uuid, OUT detail jsonb
) RETURNS record LANGUAGE plpgsql AS $fn$
DECLARE
  v_hold holds%ROWTYPE;
BEGIN
  IF p_request IS NOT NULL THEN
    SELECT h.id, h.updated_at INTO hold_id, posted_at
      FROM holds h WHERE h.id = p_target AND h.project_id = p_project AND h.settle_request_key = p_request;
    IF FOUND THEN
      code := 'ok';
      RETURN;
    END IF;
  END IF;
  SELECT * INTO v_hold FROM holds h WHERE h.id = p_target AND h.project_id = p_project FOR UPDATE;
  hold_id := v_hold.id;
  code := holds_settle_refusal(v_hold, p_now);
  IF code IS NOT NULL THEN
    RETURN;
  END IF;
  UPDATE balances SET held = held - v_hold.amount
    WHERE wallet_id = v_hold.from_wallet_id AND asset_id = v_hold.asset_id
    RETURNING amount INTO from_balance;
  PERFORM monitors_changed(p_project, v_hold.asset_id, v_hold.from_wallet_id, 0, -v_hold.amount, NULL, v_hold.id, p_now); -- monitors (§20)
  -- lots (§15): the released part of a lot already past its expiry expires now
  PERFORM lots_settle(p_project, v_hold.from_wallet_id, v_hold.asset_id, p_now);
  PERFORM lots_release(v_hold.id, v_hold.from_wallet_id, v_hold.asset_id, p_now);
  UPDATE holds SET status = 'voided', settle_request_key = p_request, updated_at = p_now WHERE id = v_hold.id
    RETURNING updated_at INTO posted_at;
  PERFORM ledger_emit(p_project, 'hold.voided', v_hold.id, NULL, posted_at);
  code := 'ok';
END
$fn$;
