-- ledger_apply: the rules of ONE posting request, whatever its kind; called by ledger_post (which
-- has locked every wallet row of its batch, in id order) with one clock reading `p_now`.
--
-- Kinds: 'transfer', 'seed' (p_from NULL), 'hold', 'capture' and 'void' (p_target = the hold),
-- 'reverse' (p_target = the original transaction; p_from/p_to = its receiver/sender, the wallets
-- locked). Every money movement goes through ledger_move; holds only move `held`.
--
-- Outcome codes besides those of ledger_move ('limit_exceeded' with its detail, §19, also for a
-- new hold: limits_check): 'request_key_mismatch', 'reference_taken'
-- (detail.existingId), 'hold_missing', 'hold_not_pending', 'hold_expired', 'not_reversible',
-- 'reversal_exceeds' (detail.reversible, minor units).
--
-- Invariants:
-- * Replays first: a request key that already made its posting answers that posting, as it
--   was, and writes nothing (only if it is the same movement).
-- * A refusal writes nothing, except that a hold found expired is released (status `expired`,
--   `held` decreased): that is the state it already had, not a posting. On an expiring asset the
--   wallet is settled with it (lots_settle), which may post due expiries (`points.expired`), as
--   any posting touching the wallet would have first.
-- * References: a request's reference is reserved in ledger_references (unique per project
--   across transactions and holds) before its movement, and the reservation removed when the
--   movement is refused. A concurrent request with the same reference waits on the key and
--   then sees it taken (or free, if that one was refused).
-- * Holds: created only if the sender's available (amount − held, expired holds released)
--   covers it; `held` grows by its amount. Capture and void need status `pending` and
--   `expires_at` not passed at p_now; a capture debits the captured part and releases the whole
--   hold in the same balance row update (ledger_move's p_release). All of a hold's changes run
--   under its sender's wallet lock and its own row lock, so it is settled at most once.
-- * Reversals: the original row is locked; the cap (amount − reversed_amount) is checked before
--   anything else of the movement (so `conflict` comes before `insufficient_funds`), and
--   reversed_amount grows in the same transaction as the reversal. A reversal is not reversible.
--
-- Events (§16): `hold.created`, `hold.captured`, `hold.voided` are written (ledger_emit) where the
-- hold row is; `transaction.posted` by ledger_move; `hold.expired` by ledger_release_expired.
CREATE OR REPLACE FUNCTION ledger_apply(
  p_kind text, p_project integer, p_asset uuid, p_from uuid, p_to uuid, p_amount bigint, p_request text,
  p_target uuid, p_reference text, p_metadata json, p_expires_in integer, p_now timestamp with time zone,
  OUT code text, OUT tx_id uuid, OUT tx_seq bigint, OUT from_balance bigint, OUT to_balance bigint,
  OUT posted_at timestamp with time zone, OUT hold_id uuid, OUT detail jsonb
) RETURNS record LANGUAGE plpgsql AS $fn$
DECLARE
  v_same boolean;
  v_id uuid := gen_random_uuid();
  v_hold holds%ROWTYPE;
  v_orig transactions%ROWTYPE;
  v_amount bigint;
  v_reversible bigint;
  v_created timestamptz;
  v_code text;
  m record;
BEGIN
  -- 1. Replays of a request that already made its posting.
  IF p_request IS NOT NULL THEN
    IF p_kind = 'hold' THEN
      SELECT h.id, h.created_at, (h.asset_id = p_asset AND h.from_wallet_id = p_from AND h.to_wallet_id = p_to AND h.amount = p_amount)
        INTO hold_id, posted_at, v_same
        FROM holds h WHERE h.project_id = p_project AND h.request_key = p_request;
    ELSIF p_kind = 'void' THEN
      SELECT h.id, h.updated_at, true INTO hold_id, posted_at, v_same
        FROM holds h WHERE h.id = p_target AND h.project_id = p_project AND h.settle_request_key = p_request;
    ELSE
      SELECT t.id, t.seq, t.from_balance, t.to_balance, t.created_at, t.hold_id,
             (t.asset_id = p_asset AND t.from_wallet_id IS NOT DISTINCT FROM p_from AND t.to_wallet_id IS NOT DISTINCT FROM p_to
              AND (p_amount IS NULL OR t.amount = p_amount)
              AND (p_kind NOT IN ('capture', 'reverse') OR p_target IN (t.hold_id, t.reverses)))
        INTO tx_id, tx_seq, from_balance, to_balance, posted_at, hold_id, v_same
        FROM transactions t WHERE t.project_id = p_project AND t.request_key = p_request;
    END IF;
    IF FOUND THEN
      IF v_same THEN
        code := 'ok';
      ELSE
        code := 'request_key_mismatch';
        tx_id := NULL; tx_seq := NULL; from_balance := NULL; to_balance := NULL; posted_at := NULL; hold_id := NULL;
      END IF;
      RETURN;
    END IF;
  END IF;

  -- 2. Holds being settled, and originals being reversed, are locked and checked first.
  IF p_kind IN ('capture', 'void') THEN
    SELECT * INTO v_hold FROM holds h WHERE h.id = p_target AND h.project_id = p_project FOR UPDATE;
    IF NOT FOUND THEN
      code := 'hold_missing';
      RETURN;
    END IF;
    hold_id := v_hold.id;
    IF v_hold.status = 'expired' THEN
      code := 'hold_expired';
      RETURN;
    END IF;
    IF v_hold.status <> 'pending' THEN
      code := 'hold_not_pending';
      RETURN;
    END IF;
    IF holds_expired(v_hold, p_now) THEN
      -- the wallet settled as any posting would (lots §15): lots_settle releases the lots such
      -- holds reserve as of their expiry, in date order; a hold marked expired on its own would
      -- keep its lots reserved, out of the sweeper's reach
      PERFORM lots_settle(p_project, v_hold.from_wallet_id, v_hold.asset_id, p_now);
      PERFORM ledger_release_expired(p_project, v_hold.from_wallet_id, v_hold.asset_id, p_now);
      code := 'hold_expired';
      RETURN;
    END IF;
  ELSIF p_kind = 'reverse' THEN
    SELECT * INTO v_orig FROM transactions t WHERE t.id = p_target AND t.project_id = p_project FOR UPDATE;
    IF NOT FOUND THEN
      code := 'not_reversible';
      RETURN;
    END IF;
    IF v_orig.reverses IS NOT NULL OR v_orig.to_wallet_id IS NULL THEN
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
  END IF;

  -- 3. The reference, reserved before the movement (removed again below if it is refused).
  IF p_reference IS NOT NULL THEN
    INSERT INTO ledger_references (project_id, reference, id) VALUES (p_project, p_reference, v_id)
      ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
      code := 'reference_taken';
      SELECT jsonb_build_object('existingId', r.id) INTO detail
        FROM ledger_references r WHERE r.project_id = p_project AND r.reference = p_reference;
      RETURN;
    END IF;
  END IF;

  -- 4. The movement.
  CASE p_kind
    WHEN 'transfer', 'seed' THEN
      SELECT * INTO m FROM ledger_move(p_project, p_asset, p_from, p_to, p_amount, p_kind, p_request,
                                       v_id, p_reference, p_metadata, NULL, NULL, 0, p_now);
      v_code := m.code;
    WHEN 'reverse' THEN
      SELECT * INTO m FROM ledger_move(p_project, v_orig.asset_id, v_orig.to_wallet_id, v_orig.from_wallet_id, v_amount, 'reversal', p_request,
                                       v_id, p_reference, p_metadata, v_orig.id, NULL, 0, p_now);
      v_code := m.code;
      IF v_code = 'ok' THEN
        UPDATE transactions SET reversed_amount = reversed_amount + v_amount WHERE id = v_orig.id;
      END IF;
    WHEN 'capture' THEN
      v_amount := coalesce(p_amount, v_hold.amount);
      ASSERT v_amount > 0 AND v_amount <= v_hold.amount, 'ledger_apply: a capture is within its hold';
      SELECT * INTO m FROM ledger_move(p_project, v_hold.asset_id, v_hold.from_wallet_id, v_hold.to_wallet_id, v_amount, 'capture', p_request,
                                       NULL, NULL, NULL, NULL, v_hold.id, v_hold.amount, p_now);
      v_code := m.code;
      IF v_code = 'ok' THEN
        UPDATE holds SET status = 'captured', captured_amount = v_amount, transaction_id = m.tx_id,
                         settle_request_key = p_request, updated_at = m.posted_at
          WHERE id = v_hold.id;
        PERFORM ledger_emit(p_project, 'hold.captured', v_hold.id, NULL, m.posted_at);
      END IF;
    WHEN 'void' THEN
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
      RETURN;
    WHEN 'hold' THEN
      SELECT status = 'active' INTO v_same FROM wallets WHERE id = p_from;
      IF v_same THEN
        SELECT status = 'active' INTO v_same FROM wallets WHERE id = p_to;
      END IF;
      IF v_same IS NOT TRUE THEN
        v_code := 'wallet_inactive';
      ELSE
        -- lots (§15): expired points never fund a hold
        PERFORM lots_settle(p_project, p_from, p_asset, p_now);
        IF (SELECT a.limit_count > 0 FROM assets a WHERE a.id = p_asset) THEN -- limits (§19): the sender's debit limits
          detail := limits_check(p_project, p_asset, p_from, NULL, p_amount, true, false, 0, p_now);
        END IF;
        UPDATE balances SET held = held + p_amount
          WHERE detail IS NULL AND wallet_id = p_from AND asset_id = p_asset AND amount - held >= p_amount
          RETURNING amount INTO from_balance;
        IF from_balance IS NULL AND detail IS NULL AND ledger_release_expired(p_project, p_from, p_asset, p_now) > 0 THEN
          UPDATE balances SET held = held + p_amount
            WHERE wallet_id = p_from AND asset_id = p_asset AND amount - held >= p_amount
            RETURNING amount INTO from_balance;
        END IF;
        IF detail IS NOT NULL THEN
          v_code := 'limit_exceeded';
        ELSIF from_balance IS NULL THEN
          v_code := 'insufficient_funds';
        ELSE
          v_created := p_now::timestamptz(3);
          INSERT INTO holds (id, project_id, asset_id, from_wallet_id, to_wallet_id, amount, expires_at,
                             reference, metadata, request_key, created_at, updated_at)
            VALUES (v_id, p_project, p_asset, p_from, p_to, p_amount, v_created + make_interval(secs => p_expires_in),
                    p_reference, p_metadata, p_request, v_created, v_created);
          PERFORM ledger_emit(p_project, 'hold.created', v_id, NULL, v_created);
          PERFORM monitors_changed(p_project, p_asset, p_from, 0, p_amount, NULL, v_id, v_created); -- monitors (§20)
          PERFORM lots_reserve(v_id, p_from, p_asset, p_amount, p_now); -- lots (§15): earliest expiry first
          hold_id := v_id;
          posted_at := v_created;
          v_code := 'ok';
        END IF;
      END IF;
  END CASE;

  code := v_code;
  IF code = 'ok' THEN
    IF p_kind <> 'hold' THEN
      tx_id := m.tx_id; tx_seq := m.tx_seq; from_balance := m.from_balance; to_balance := m.to_balance; posted_at := m.posted_at;
    END IF;
  ELSE
    from_balance := NULL;
    IF v_code = 'limit_exceeded' AND p_kind <> 'hold' THEN
      detail := m.detail;
    END IF;
    IF p_kind = 'capture' THEN
      NULL; -- hold_id names the hold that could not be captured
    ELSE
      hold_id := NULL;
    END IF;
    IF p_reference IS NOT NULL THEN
      DELETE FROM ledger_references WHERE project_id = p_project AND reference = p_reference AND id = v_id;
    END IF;
  END IF;
END
$fn$;
