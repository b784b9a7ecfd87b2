DROP FUNCTION IF EXISTS holds_create(integer, uuid, uuid, uuid, bigint, text, uuid, text, json, integer, timestamp with time zone);
-- holds_create: a new pending hold (CONTRACT §10), the request kind 'hold' of ledger_apply, which
-- calls it under the wallet locks of ledger_post with the batch's clock reading `p_now` and the
-- id `p_id` the hold gets (its reference's reservation names it; ledger_apply removes that
-- reservation when the hold is refused).
--
-- Outcome codes: 'ok' (hold_id, posted_at = its created_at, from_balance), 'request_key_mismatch',
-- 'reference_taken' (detail.existingId), 'wallet_inactive', 'limit_exceeded' (detail, §19:
-- limits_check on the sender's debit limits), 'insufficient_funds'.
--
-- Invariants:
-- * Replays first: a request key that already made a hold answers that hold, as it was, and
--   writes nothing (only if it is the same movement: asset, both wallets, amount).
-- * Created only if the sender's available (amount − held + credit_limit, §28; expired holds released) covers it;
--   `held` grows by its amount in one conditional row update, so available never goes below 0.
-- * Lots (§15): the sender is settled first (lots_settle: expired points never fund a hold), and
--   the hold reserves lots earliest expiry first (lots_reserve).
-- * A refusal writes nothing (the settlement's due expiries stay: they were owed).
--
-- Maturing holds (§26): `p_mature_in` seconds after its creation, or at `p_mature_at` (the service
-- checked the bounds, and that at most one of them and `p_expires_in` is given), the hold captures
-- itself (holds_mature_sweep.sql); `maturity_due_at` starts at `matures_at`.
--
-- Events (§16): `hold.created` (ledger_emit). Monitors (§20): the sender's `available` moves
-- (monitors_changed).
CREATE OR REPLACE FUNCTION holds_create(
  p_project integer, p_asset uuid, p_from uuid, p_to uuid, p_amount bigint, p_request text, p_id uuid,
  p_reference text, p_metadata json, p_expires_in integer, p_now timestamp with time zone,
  p_mature_in integer DEFAULT NULL::integer, p_mature_at timestamp with time zone DEFAULT NULL::timestamp with time zone,
  OUT code text, OUT tx_id uuid, OUT tx_seq bigint, OUT from_balance bigint, OUT to_balance bigint,
  OUT posted_at timestamp with time zone, OUT hold_id uuid, OUT detail jsonb
) RETURNS record LANGUAGE plpgsql AS $fn$
DECLARE
  v_same boolean;
  v_created timestamptz;
  v_matures timestamptz;
BEGIN
  IF p_request IS NOT NULL THEN
    SELECT h.id, h.created_at, (h.asset_id = p_asset AND h.from_wallet_id = p_from AND h.to_wallet_id = p_to AND h.amount = p_amount)
      INTO hold_id, posted_at, v_same
      FROM holds h WHERE h.project_id = p_project AND h.request_key = p_request;
    IF FOUND THEN
      IF v_same THEN
        code := 'ok';
      ELSE
        code := 'request_key_mismatch';
        posted_at := NULL; hold_id := NULL;
      END IF;
      RETURN;
    END IF;
  END IF;
  IF p_reference IS NOT NULL THEN
    detail := ledger_reference_take(p_project, p_reference, p_id);
    IF detail IS NOT NULL THEN
      code := 'reference_taken';
      RETURN;
    END IF;
  END IF;

  SELECT status = 'active' INTO v_same FROM wallets WHERE id = p_from;
  IF v_same THEN
    SELECT status = 'active' INTO v_same FROM wallets WHERE id = p_to;
  END IF;
  IF v_same IS NOT TRUE THEN
    code := 'wallet_inactive';
    RETURN;
  END IF;
  -- lots (§15): expired points never fund a hold
  PERFORM lots_settle(p_project, p_from, p_asset, p_now);
  IF (SELECT a.limit_count > 0 FROM assets a WHERE a.id = p_asset) THEN -- limits (§19): the sender's debit limits
    detail := limits_check(p_project, p_asset, p_from, NULL, p_amount, NULL, false, 0, p_now);
  END IF;
  UPDATE balances SET held = held + p_amount
    WHERE detail IS NULL AND wallet_id = p_from AND asset_id = p_asset AND amount - held + credit_limit >= p_amount
    RETURNING amount INTO from_balance;
  IF from_balance IS NULL AND detail IS NULL AND holds_release_expired(p_project, p_from, p_asset, p_now) > 0 THEN
    UPDATE balances SET held = held + p_amount
      WHERE wallet_id = p_from AND asset_id = p_asset AND amount - held + credit_limit >= p_amount
      RETURNING amount INTO from_balance;
  END IF;
  IF detail IS NOT NULL THEN
    code := 'limit_exceeded';
    RETURN;
  END IF;
  IF from_balance IS NULL THEN
    code := 'insufficient_funds';
    RETURN;
  END IF;
  v_created := p_now::timestamptz(3);
  v_matures := coalesce(v_created + make_interval(secs => p_mature_in), p_mature_at::timestamptz(3));
  INSERT INTO holds (id, project_id, asset_id, from_wallet_id, to_wallet_id, amount, expires_at, matures_at, maturity_due_at,
                     reference, metadata, request_key, created_at, updated_at)
    VALUES (p_id, p_project, p_asset, p_from, p_to, p_amount, v_created + make_interval(secs => p_expires_in), v_matures, v_matures,
            p_reference, p_metadata, p_request, v_created, v_created);
  PERFORM ledger_emit(p_project, 'hold.created', p_id, NULL, v_created);
  PERFORM monitors_changed(p_project, p_asset, p_from, 0, p_amount, NULL, p_id, v_created); -- monitors (§20)
  PERFORM lots_reserve(p_id, p_from, p_asset, p_amount, p_now); -- lots (§15): earliest expiry first
  hold_id := p_id;
  posted_at := v_created;
  code := 'ok';
END
$fn$;
