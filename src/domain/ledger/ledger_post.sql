-- ledger_post: the one home of the posting rules. This file is the current definition;
-- `migrate()` (src/db/routines.ts) installs it after the schema migrations whenever its text
-- changes, and test/db/routines.test.ts fails when a migrated database runs anything else.
--
-- Posts a batch of movements in ONE database transaction (the caller's statement), each element
-- with its own outcome. Element i moves p_amount[i] minor units of p_asset[i] in project
-- p_project[i] from p_from[i] (NULL: the reserved @mint source, a seed) to p_to[i].
--
-- Invariants:
-- * Lock order: every wallet row of the batch is locked first, in id order (FOR NO KEY UPDATE),
--   so concurrent batches never deadlock, and a wallet's status change (which locks the same row)
--   cannot interleave with a posting: status is re-read under the lock.
-- * Never below zero: a debit is one conditional UPDATE (`amount >= p_amount`); the balances
--   table also has CHECK (amount >= 0). A credit never passes 2^63-1 ('balance_overflow').
-- * Balance rows and counts move together: each balance row's amount and tx_count change in the
--   same row update, and the transaction row records both resulting balances and both resulting
--   counts (the running balance chain of every history, and each side's position in it, which
--   answer reads as of a time with one index lookup: CONTRACT §14).
-- * A refused element ('wallet_inactive', 'insufficient_funds', 'balance_overflow',
--   'asset_missing', 'request_key_mismatch') writes nothing and does not stop the others; an
--   accepted one returns its transaction and both resulting balances.
-- * Idempotency: an element carrying a request key that already posted answers that posting as
--   it was (only if it is the same movement), and posts nothing again.
-- * Points that expire (CONTRACT §15; the lot rules live in src/domain/lots/*.sql): an element is
--   posted at one instant, v_now, which is also its date. For an asset that has ever had an expiry
--   (read once per asset of the batch), before it touches a wallet, the wallet's lots due at v_now
--   are expired (lots_expire_due; those expiry postings stay even when the element is then
--   refused: they were owed); a debit then consumes lots (lots_consume), and a credit to a
--   customer wallet while the asset has an expiry creates one (lots_credit).
CREATE OR REPLACE FUNCTION ledger_post(
  p_project integer[], p_asset uuid[], p_from uuid[], p_to uuid[], p_amount bigint[], p_request text[]
) RETURNS TABLE (
  idx integer, code text, tx_id uuid, tx_seq bigint, from_balance bigint, to_balance bigint, posted_at timestamptz
) LANGUAGE plpgsql AS $fn$
DECLARE
  v_status_from text;
  v_status_to text;
  v_to_current bigint;
  v_same boolean;
  v_from_count bigint;
  v_to_count bigint;
  v_now timestamptz;
  v_lot_asset uuid;
  v_lot_seconds integer;
  v_lots boolean := false;
BEGIN
  PERFORM 1 FROM wallets WHERE id = ANY (p_from || p_to) ORDER BY id FOR NO KEY UPDATE;
  FOR i IN 1 .. coalesce(array_length(p_amount, 1), 0) LOOP
    idx := i; tx_id := NULL; tx_seq := NULL; from_balance := NULL; to_balance := NULL; posted_at := NULL;
    v_from_count := NULL;
    ASSERT p_amount[i] > 0, 'ledger_post: amounts are positive';
    IF p_request[i] IS NOT NULL THEN
      -- A retried request that was already posted answers that posting, as it was (and only if
      -- it is the same movement: a key is never allowed to stand for another one).
      SELECT t.id, t.seq, t.from_balance, t.to_balance, t.created_at,
             (t.asset_id = p_asset[i] AND t.from_wallet_id IS NOT DISTINCT FROM p_from[i]
              AND t.to_wallet_id = p_to[i] AND t.amount = p_amount[i])
        INTO tx_id, tx_seq, from_balance, to_balance, posted_at, v_same
        FROM transactions t WHERE t.project_id = p_project[i] AND t.request_key = p_request[i];
      IF FOUND THEN
        IF v_same THEN
          code := 'ok';
        ELSE
          code := 'request_key_mismatch';
          tx_id := NULL; tx_seq := NULL; from_balance := NULL; to_balance := NULL; posted_at := NULL;
        END IF;
        RETURN NEXT;
        CONTINUE;
      END IF;
    END IF;
    SELECT status INTO v_status_to FROM wallets WHERE id = p_to[i];
    IF p_from[i] IS NULL THEN
      v_status_from := 'active';
    ELSE
      SELECT status INTO v_status_from FROM wallets WHERE id = p_from[i];
    END IF;
    IF v_status_from IS DISTINCT FROM 'active' OR v_status_to IS DISTINCT FROM 'active' THEN
      code := 'wallet_inactive';
      RETURN NEXT;
      CONTINUE;
    END IF;
    v_now := clock_timestamp()::timestamptz(3);
    IF v_lot_asset IS DISTINCT FROM p_asset[i] THEN
      SELECT a.expires_after_seconds, a.ever_expiring INTO v_lot_seconds, v_lots FROM assets a WHERE a.id = p_asset[i];
      v_lot_asset := p_asset[i];
    END IF;
    IF v_lots THEN
      IF p_from[i] IS NOT NULL THEN
        PERFORM lots_expire_due(p_from[i], p_asset[i], v_now);
      END IF;
      PERFORM lots_expire_due(p_to[i], p_asset[i], v_now);
    END IF;
    SELECT amount INTO v_to_current FROM balances WHERE wallet_id = p_to[i] AND asset_id = p_asset[i];
    IF coalesce(v_to_current, 0) > 9223372036854775807 - p_amount[i] THEN
      code := 'balance_overflow';
      RETURN NEXT;
      CONTINUE;
    END IF;
    IF p_from[i] IS NOT NULL THEN
      UPDATE balances SET amount = amount - p_amount[i], tx_count = tx_count + 1
        WHERE wallet_id = p_from[i] AND asset_id = p_asset[i] AND amount >= p_amount[i]
        RETURNING amount, tx_count INTO from_balance, v_from_count;
      IF NOT FOUND THEN
        code := 'insufficient_funds';
        RETURN NEXT;
        CONTINUE;
      END IF;
      ASSERT from_balance >= 0, 'ledger_post: a debit left a balance below zero';
      IF v_lots THEN
        PERFORM lots_consume(p_from[i], p_asset[i], p_amount[i], v_now);
      END IF;
    END IF;
    IF v_to_current IS NULL THEN
      -- A wallet's first balance in an asset: hold the asset against a concurrent delete
      -- (which locks it FOR UPDATE and refuses once any balance row exists).
      PERFORM 1 FROM assets WHERE id = p_asset[i] FOR KEY SHARE;
      IF NOT FOUND THEN
        code := 'asset_missing';
        RETURN NEXT;
        CONTINUE;
      END IF;
      INSERT INTO balances (wallet_id, asset_id, project_id, amount, tx_count)
        VALUES (p_to[i], p_asset[i], p_project[i], p_amount[i], 1)
        RETURNING amount, tx_count INTO to_balance, v_to_count;
    ELSE
      UPDATE balances SET amount = amount + p_amount[i], tx_count = tx_count + 1
        WHERE wallet_id = p_to[i] AND asset_id = p_asset[i]
        RETURNING amount, tx_count INTO to_balance, v_to_count;
    END IF;
    ASSERT to_balance = coalesce(v_to_current, 0) + p_amount[i], 'ledger_post: a credit did not add exactly its amount';
    INSERT INTO transactions (project_id, asset_id, kind, from_wallet_id, to_wallet_id, amount, from_balance, to_balance, from_count, to_count, request_key, created_at)
      VALUES (p_project[i], p_asset[i], CASE WHEN p_from[i] IS NULL THEN 'seed' ELSE 'transfer' END,
              p_from[i], p_to[i], p_amount[i], from_balance, to_balance, v_from_count, v_to_count, p_request[i], v_now)
      RETURNING id, seq, created_at INTO tx_id, tx_seq, posted_at;
    IF v_lot_seconds IS NOT NULL THEN
      PERFORM lots_credit(p_project[i], p_to[i], p_asset[i], p_amount[i], tx_id, posted_at, v_lot_seconds);
    END IF;
    code := 'ok';
    RETURN NEXT;
  END LOOP;
END
$fn$;
