DROP FUNCTION IF EXISTS ledger_move(integer, uuid, uuid, uuid, bigint, text, text, uuid, text, json, uuid, uuid, bigint, timestamp with time zone);
-- ledger_move: the ONE per-leg money movement, used by every posting kind: transfer, seed and
-- batch leg (ledger_apply), hold capture (holds_capture), reversal (ledger_reverse). Moves
-- p_amount minor units of p_asset from p_from (NULL: the reserved @mint source, a seed) to p_to
-- (NULL: back to @mint, the reversal of a seed) and records the transaction with both resulting
-- balances.
--
-- The caller (ledger_post) has locked both wallet rows, in id order, before calling.
--
-- Rules, in this order (the first refusal is the outcome; a refusal writes nothing):
-- 1. both wallets `active` ('wallet_inactive'); @mint is always active;
-- 2. the receiver's balance stays within bigint ('balance_overflow');
-- 3. the sender keeps available >= 0, its credit line counted (§28: available = amount − held +
--    credit_limit, so no debit takes it below −credit_limit, nor below zero without a line): one
--    conditional UPDATE (`amount - held + credit_limit >= p_amount`), where `p_release` is held
--    released in the same row update (a capture releases its whole hold while debiting the
--    captured part). A line lowered below its use leaves available < 0: only credits pass then. Before refusing for funds, the sender's expired
--    holds are released (holds_release_expired) and the debit tried once more, so a hold past
--    its expires_at never reserves funds ('insufficient_funds');
-- 4. the credit (a first balance row in an asset is preceded by a share lock on the asset, taken
--    before the debit, against a concurrent delete: 'asset_missing');
-- 5. the transaction row: kind, both resulting balances (the running balance chains), and
--    reverses / hold_id / reference / metadata as given. `tx_count` moves in the same row
--    updates as the amounts.
--
-- Hooks (keep them here, once for every posting kind):
-- * lots (§15, src/domain/lots/*.sql), only for an asset that has ever had an expiry: after
--   step 1, both wallets are settled at p_now (lots_settle: holds that expired while reserving
--   lots are released, due lots expire — those expiry postings stay even when the movement is
--   then refused: they were owed); after step 3 the sender's lots are consumed (a capture's from
--   what its hold reserved, lots_capture); after step 5 a credit to a customer wallet while the
--   asset has an expiry creates its lot (lots_credit), and a capture releases the rest of its
--   hold's reservations (lots_release: a released part of an expired lot expires now, after the
--   capture in the history). The transaction is dated p_now, the instant expiry was judged at;
-- * events (§16): one `transaction.posted` per transaction, after step 5, in the same database
--   transaction (ledger_emit; a refused movement returned before it and wrote none);
-- * limits (§19, src/domain/limits/*.sql), only for an asset that has limits: between steps 3 and
--   4's checks and the debit, limits_check ('limit_exceeded', detail {limitId, remaining}; a
--   capture, `p_hold`, against the debit limits its hold has aged out of); not for a reversal.
--   The running totals of counted movements (`debited`, `credited`; a reversal counts 0) move in
--   the same row updates as the amounts and are written on the transaction row.
-- * balance monitors (§20, src/domain/monitors/*.sql), only for an asset with monitors: both
--   sides' crossings, judged on their values before and after this movement (monitors_crossed),
--   in ONE statement: the values after are the ones the row updates returned, the values before
--   follow from p_amount and p_release (nothing later in this routine moves `held`, and a
--   capture's lot expiries moved `amount` after from_balance), so no balance row is read again.
--   A posting that crosses nothing runs that one statement; each crossing is written with its
--   event (monitors_record), the sender's first, each side's in monitor order.
--
-- Deferred write (p_defer, asked by ledger_post through ledger_apply for a plain transfer or seed
-- outside a group): the transaction row and its `transaction.posted` event are not written here
-- but returned as `tx_row` (its seq drawn now, so seq order stays movement order), and ledger_post
-- writes its batch's rows in one statement each (ledger_flush) before anything in the batch could
-- read them and before it returns. Only a movement whose hooks all stay silent defers: an asset
-- with lots, limits or monitors, or a debit that would release expired holds (their events must
-- keep their place in the outbox), answers 'flush_first_asset' (the asset's hooks) or 'flush_first'
-- (the debit) before writing anything, and ledger_post writes what it holds and runs the request
-- again without deferring.
CREATE OR REPLACE FUNCTION ledger_move(
  p_project integer, p_asset uuid, p_from uuid, p_to uuid, p_amount bigint, p_kind text, p_request text,
  p_id uuid, p_reference text, p_metadata json, p_reverses uuid, p_hold uuid, p_release bigint, p_now timestamp with time zone,
  p_defer boolean DEFAULT false,
  OUT code text, OUT tx_id uuid, OUT tx_seq bigint, OUT from_balance bigint, OUT to_balance bigint, OUT posted_at timestamp with time zone,
  OUT detail jsonb, OUT tx_row transactions
) RETURNS record LANGUAGE plpgsql AS $fn$
DECLARE
  v_status text;
  v_to_status text;
  v_to_current bigint;
  v_from_count bigint;
  v_to_count bigint;
  v_lots boolean;
  v_lot_seconds integer;
  v_limited boolean;
  v_counted bigint := CASE WHEN p_kind = 'reversal' THEN 0 ELSE p_amount END;
  v_from_debited bigint;
  v_to_credited bigint;
  v_monitored boolean;
  v_from_held bigint;
  v_to_held bigint;
  v_from_credit bigint;
  v_to_credit bigint;
  v_crossing record;
BEGIN
  ASSERT p_amount > 0, 'ledger_move: amounts are positive';
  -- Everything the rules read before writing, in ONE statement (each plpgsql statement costs an
  -- executor start on the serial posting backend): both statuses, the asset's flags and the
  -- receiver's balance. The wallet rows are locked, so the statuses and the balance hold; only
  -- lots_settle (an asset with lots) may still change the receiver's balance: re-read after it.
  SELECT (SELECT w.status FROM wallets w WHERE w.id = p_from), (SELECT w.status FROM wallets w WHERE w.id = p_to),
         (SELECT b.amount FROM balances b WHERE b.wallet_id = p_to AND b.asset_id = p_asset),
         a.ever_expiring, a.expires_after_seconds, a.limit_count > 0, a.monitors > 0
    INTO v_status, v_to_status, v_to_current, v_lots, v_lot_seconds, v_limited, v_monitored
    FROM (VALUES (1)) one LEFT JOIN assets a ON a.id = p_asset;
  IF p_defer AND (v_lots OR v_lot_seconds IS NOT NULL OR v_limited OR v_monitored) THEN
    code := 'flush_first_asset';
    RETURN;
  END IF;
  IF p_from IS NOT NULL AND v_status IS DISTINCT FROM 'active' THEN
    code := 'wallet_inactive';
    RETURN;
  END IF;
  IF v_lots THEN
    IF p_from IS NOT NULL THEN
      PERFORM lots_settle(p_project, p_from, p_asset, p_now);
    END IF;
    IF p_to IS NOT NULL THEN
      PERFORM lots_settle(p_project, p_to, p_asset, p_now);
      SELECT amount INTO v_to_current FROM balances WHERE wallet_id = p_to AND asset_id = p_asset;
    END IF;
  END IF;
  IF p_to IS NOT NULL THEN
    IF v_to_status IS DISTINCT FROM 'active' THEN
      code := 'wallet_inactive';
      RETURN;
    END IF;
    IF coalesce(v_to_current, 0) > 9223372036854775807 - p_amount THEN
      code := 'balance_overflow';
      RETURN;
    END IF;
    IF v_to_current IS NULL THEN
      -- A wallet's first balance in an asset: hold the asset against a concurrent delete
      -- (which locks it FOR UPDATE and refuses once any balance row exists).
      PERFORM 1 FROM assets WHERE id = p_asset FOR KEY SHARE;
      IF NOT FOUND THEN
        code := 'asset_missing';
        RETURN;
      END IF;
    END IF;
  END IF;
  IF v_limited AND v_counted > 0 THEN
    detail := limits_check(p_project, p_asset, p_from, p_to, p_amount, p_hold, true, p_release, p_now);
    IF detail IS NOT NULL THEN
      code := 'limit_exceeded';
      RETURN;
    END IF;
  END IF;
  IF p_from IS NOT NULL THEN
    UPDATE balances SET amount = amount - p_amount, held = held - p_release, tx_count = tx_count + 1, debited = debited + v_counted
      WHERE wallet_id = p_from AND asset_id = p_asset AND amount - (held - p_release) + credit_limit >= p_amount
      RETURNING amount, tx_count, debited, held, credit_limit INTO from_balance, v_from_count, v_from_debited, v_from_held, v_from_credit;
    IF from_balance IS NULL AND p_defer THEN
      code := 'flush_first';
      RETURN;
    END IF;
    IF from_balance IS NULL AND holds_release_expired(p_project, p_from, p_asset, p_now) > 0 THEN
      UPDATE balances SET amount = amount - p_amount, held = held - p_release, tx_count = tx_count + 1, debited = debited + v_counted
        WHERE wallet_id = p_from AND asset_id = p_asset AND amount - (held - p_release) + credit_limit >= p_amount
        RETURNING amount, tx_count, debited, held, credit_limit INTO from_balance, v_from_count, v_from_debited, v_from_held, v_from_credit;
    END IF;
    IF from_balance IS NULL THEN
      code := 'insufficient_funds';
      RETURN;
    END IF;
    ASSERT from_balance - v_from_held + v_from_credit >= 0, 'ledger_move: a debit left available below zero (its credit line counted)';
    IF v_lots AND p_hold IS NOT NULL THEN
      PERFORM lots_capture(p_hold, p_amount);
    ELSIF v_lots THEN
      PERFORM lots_consume(p_from, p_asset, p_amount, p_now);
    END IF;
  END IF;
  IF p_to IS NOT NULL THEN
    IF v_to_current IS NULL THEN
      INSERT INTO balances (wallet_id, asset_id, project_id, amount, tx_count, credited)
        VALUES (p_to, p_asset, p_project, p_amount, 1, v_counted)
        RETURNING amount, tx_count, credited, held, credit_limit INTO to_balance, v_to_count, v_to_credited, v_to_held, v_to_credit;
    ELSE
      UPDATE balances SET amount = amount + p_amount, tx_count = tx_count + 1, credited = credited + v_counted
        WHERE wallet_id = p_to AND asset_id = p_asset
        RETURNING amount, tx_count, credited, held, credit_limit INTO to_balance, v_to_count, v_to_credited, v_to_held, v_to_credit;
    END IF;
    ASSERT to_balance = coalesce(v_to_current, 0) + p_amount, 'ledger_move: a credit did not add exactly its amount';
  END IF;
  IF p_defer THEN
    -- the columns of `transactions` in table order (a column added later fails this cast loudly)
    tx_row := ROW(nextval('transactions_seq_seq'::regclass), coalesce(p_id, gen_random_uuid()), p_project, p_asset, p_kind, p_from, p_to,
                  p_amount, from_balance, to_balance, p_now, p_request, p_reverses, 0, p_hold, p_reference, p_metadata,
                  v_from_count, v_to_count, NULL, v_from_debited, v_to_credited)::transactions;
    tx_id := tx_row.id; tx_seq := tx_row.seq; posted_at := p_now;
    code := 'ok';
    RETURN;
  END IF;
  -- from_count / to_count: each side's position in its history (its balance row's tx_count after
  -- this transaction), which answers reads as of a time with one index lookup (CONTRACT §14).
  INSERT INTO transactions (id, project_id, asset_id, kind, from_wallet_id, to_wallet_id, amount, from_balance, to_balance,
                            from_count, to_count, request_key, reverses, hold_id, reference, metadata, created_at, from_debited, to_credited)
    VALUES (coalesce(p_id, gen_random_uuid()), p_project, p_asset, p_kind, p_from, p_to, p_amount, from_balance, to_balance,
            v_from_count, v_to_count, p_request, p_reverses, p_hold, p_reference, p_metadata, p_now, v_from_debited, v_to_credited)
    RETURNING id, seq, created_at INTO tx_id, tx_seq, posted_at;
  IF v_lot_seconds IS NOT NULL AND p_to IS NOT NULL THEN
    PERFORM lots_credit(p_project, p_to, p_asset, p_amount, tx_id, posted_at, v_lot_seconds);
  END IF;
  IF v_lots AND p_hold IS NOT NULL THEN
    PERFORM lots_release(p_hold, p_from, p_asset, p_now);
  END IF;
  PERFORM ledger_emit(p_project, 'transaction.posted', tx_id, NULL, posted_at);
  IF v_monitored THEN
    -- a side without a wallet (@mint) has no row in s once joined to wallets
    FOR v_crossing IN
      SELECT s.wallet, c.id, c.field, c.operator, c.value, c.previous, c.current
        FROM (VALUES (1, p_from, from_balance + p_amount, from_balance, (from_balance + p_amount) - (v_from_held + p_release) + v_from_credit, from_balance - v_from_held + v_from_credit),
                     (2, p_to, to_balance - p_amount, to_balance, (to_balance - p_amount) - v_to_held + v_to_credit, to_balance - v_to_held + v_to_credit))
             AS s (side, wallet, balance_before, balance_after, available_before, available_after)
        JOIN wallets w ON w.id = s.wallet
        CROSS JOIN LATERAL monitors_crossed(p_project, p_asset, s.wallet, w.type = 'customer',
                                            s.balance_before, s.balance_after, s.available_before, s.available_after) c
       ORDER BY s.side, c.seq
    LOOP
      PERFORM monitors_record(p_project, p_asset, v_crossing.wallet, v_crossing.id, v_crossing.field, v_crossing.operator, v_crossing.value,
                              v_crossing.previous, v_crossing.current, tx_id, p_hold, posted_at);
    END LOOP;
  END IF;
  code := 'ok';
END
$fn$;
