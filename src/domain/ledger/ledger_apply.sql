DROP FUNCTION IF EXISTS ledger_apply(text, integer, uuid, uuid, uuid, bigint, text, uuid, text, json, integer, timestamp with time zone);
DROP FUNCTION IF EXISTS ledger_apply(text, integer, uuid, uuid, uuid, bigint, text, uuid, text, json, integer, timestamp with time zone, boolean);
-- ledger_apply: ONE posting request, whatever its kind: the dispatcher. Called by ledger_post
-- (which has locked every wallet row of its batch, in id order) with one clock reading `p_now`.
--
-- Kinds, and where their rules are:
--   'transfer', 'seed' (p_from NULL)  ledger_move itself, here (the path of every transfer: no
--                                     routine of its own, plpgsql calls are what a posting costs);
--   'reverse' (p_target = the original transaction; p_from/p_to = its receiver/sender, the
--             wallets locked)         ledger_reverse.sql;
--   'hold'                            holds/holds_create.sql (p_mature_in / p_mature_at: a maturing
--                                     hold, §26);
--   'capture', 'void' (p_target = the hold)  holds/holds_capture.sql, holds/holds_void.sql.
-- Every money movement goes through ledger_move; holds only move `held`.
--
-- Outcome codes: 'ok', 'request_key_mismatch', 'reference_taken' (detail.existingId), and those of
-- each kind's routine and of ledger_move ('limit_exceeded' with its detail, §19, …).
--
-- Invariants kept here, for every kind:
-- * Replays first: a request key that already made its posting answers that posting, as it was,
--   and writes nothing (only if it is the same movement). The kinds that make a transaction are
--   answered here (ledger_replay); holds_create and holds_void answer theirs from the hold row.
-- * References: a request's reference is reserved (ledger_reference_take, by the routine of its
--   kind, after that kind's own checks) before its movement, under the id `v_id` its posting gets;
--   a refused request's reservation is removed here. A concurrent request with the same reference
--   waits on the key and then sees it taken (or free, if that one was refused). A capture and a
--   void carry none (their posting is the hold's).
-- * p_defer (ledger_post, a transfer or seed outside a group): ledger_move returns the transaction
--   row as `tx_row` for ledger_post to write with its batch (ledger_flush), or answers
--   'flush_first' or 'flush_first_asset' having written nothing (the reservation of the reference is removed below, as
--   for a refusal, and ledger_post runs the request again without deferring).
-- * A refusal writes nothing, except that a hold found expired is released (holds_settle_refusal)
--   and that due lot expiries a settlement posted stay (lots §15: they were owed).
CREATE OR REPLACE FUNCTION ledger_apply(
  p_kind text, p_project integer, p_asset uuid, p_from uuid, p_to uuid, p_amount bigint, p_request text,
  p_target uuid, p_reference text, p_metadata json, p_expires_in integer, p_now timestamp with time zone, p_defer boolean DEFAULT false,
  p_mature_in integer DEFAULT NULL::integer, p_mature_at timestamp with time zone DEFAULT NULL::timestamp with time zone,
  OUT code text, OUT tx_id uuid, OUT tx_seq bigint, OUT from_balance bigint, OUT to_balance bigint,
  OUT posted_at timestamp with time zone, OUT hold_id uuid, OUT detail jsonb, OUT tx_row transactions
) RETURNS record LANGUAGE plpgsql AS $fn$
DECLARE
  v_same boolean;
  v_id uuid := gen_random_uuid();
  m record;
BEGIN
  IF p_request IS NOT NULL AND p_kind NOT IN ('hold', 'void') THEN
    SELECT r.tx_id, r.tx_seq, r.from_balance, r.to_balance, r.posted_at, r.hold_id, r.same
      INTO tx_id, tx_seq, from_balance, to_balance, posted_at, hold_id, v_same
      FROM ledger_replay(p_kind, p_project, p_asset, p_from, p_to, p_amount, p_request, p_target) r;
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

  CASE p_kind
    WHEN 'transfer', 'seed' THEN
      IF p_reference IS NOT NULL THEN
        detail := ledger_reference_take(p_project, p_reference, v_id);
      END IF;
      IF detail IS NOT NULL THEN
        code := 'reference_taken';
      ELSE
        m := ledger_move(p_project, p_asset, p_from, p_to, p_amount, p_kind, p_request,
                         v_id, p_reference, p_metadata, NULL, NULL, 0, p_now, p_defer);
        code := m.code; detail := m.detail;
        IF code = 'ok' THEN
          tx_id := m.tx_id; tx_seq := m.tx_seq; from_balance := m.from_balance; to_balance := m.to_balance; posted_at := m.posted_at;
          tx_row := m.tx_row;
        END IF;
      END IF;
    WHEN 'reverse' THEN
      SELECT * INTO code, tx_id, tx_seq, from_balance, to_balance, posted_at, hold_id, detail
        FROM ledger_reverse(p_project, p_target, p_amount, p_request, v_id, p_reference, p_metadata, p_now);
    WHEN 'hold' THEN
      SELECT * INTO code, tx_id, tx_seq, from_balance, to_balance, posted_at, hold_id, detail
        FROM holds_create(p_project, p_asset, p_from, p_to, p_amount, p_request, v_id, p_reference, p_metadata, p_expires_in, p_now,
                          p_mature_in, p_mature_at);
    WHEN 'capture' THEN
      SELECT * INTO code, tx_id, tx_seq, from_balance, to_balance, posted_at, hold_id, detail
        FROM holds_capture(p_project, p_target, p_amount, p_request, p_now);
    WHEN 'void' THEN
      SELECT * INTO code, tx_id, tx_seq, from_balance, to_balance, posted_at, hold_id, detail
        FROM holds_void(p_project, p_target, p_request, p_now);
  END CASE;

  IF code <> 'ok' AND p_reference IS NOT NULL THEN
    DELETE FROM ledger_references WHERE project_id = p_project AND reference = p_reference AND id = v_id;
  END IF;
END
$fn$;
