DROP FUNCTION IF EXISTS ledger_post(integer[], uuid[], uuid[], uuid[], bigint[], text[]);
DROP FUNCTION IF EXISTS ledger_post(text[], integer[], uuid[], uuid[], uuid[], bigint[], text[], integer[], uuid[], text[], json[], integer[]);
-- ledger_post: the entry point of every posting. This file and its siblings are the current
-- definitions; `migrate()` (src/db/routines.ts) installs them after the schema migrations whenever
-- their text changes, and test/db/routines.test.ts fails when a migrated database runs anything
-- else (src/db/routines.ts lists every routine and what it calls). The rules, one routine a file:
--   ledger_post            (this file) locks, runs a batch of posting requests, atomic groups;
--   ledger_apply           one request: answers replays, dispatches on its kind (transfer and seed
--                          are ledger_move itself), removes a refused request's reference;
--   ledger_move            the ONE per-leg money movement (status, funds, overflow, both balance
--                          rows + tx_count, the transaction row) — hooks for lots (§15) and events (§16);
--   ledger_reverse         a reversal (§11); holds/holds_create, holds_capture, holds_void the hold
--                          verbs (§10); holds/holds_release_expired releases a wallet's expired holds
--                          (hook for hold.expired).
--
-- Posts a batch of requests in ONE database transaction (the caller's statement), each with its
-- own outcome. Element i is a request of kind p_kind[i] (see ledger_apply); elements with the
-- same non-NULL p_group[i] are consecutive and form an ATOMIC group (a batch of transfers, §12):
-- they run in order inside one subtransaction, a later leg seeing what earlier legs did, and the
-- first refused leg rolls the whole group back (and only the group): every element of the group
-- then answers that leg's code, with detail.index = the leg's position in its group.
--
-- Invariants:
-- * Lock order: every wallet row of the batch is locked first, in id order (FOR NO KEY UPDATE),
--   so concurrent batches never deadlock, and a wallet's status change (which locks the same row)
--   cannot interleave with a posting: status is re-read under the lock. Holds and originals being
--   reversed are locked after, always under their wallets' locks.
-- * Never below the credit line (§28): available = balance − held + credit_limit >= 0 after every
--   debit and hold, so no wallet goes below −credit_limit and one without a line never below zero
--   (the CHECK on balances is the row's backstop, credit_bound); a debit is one conditional UPDATE.
--   A credit never passes 2^63-1.
-- * Conditions (§28, p_conditions[i]: ledger_conditions' jsonb array, NULL for none): a request
--   that carries them runs as a group of one, in a subtransaction, and its conditions are judged
--   after it posted ('ok'), last, on the balances as it left them; the first that does not hold
--   refuses it ('condition_failed', detail {index, actual}) and rolls it back; a replay of a request
--   key that already posted answers that posting, unjudged (its posted_at is an earlier v_now). A group's leg sees
--   the group's earlier legs; its refusal's detail is {index: leg, condition, actual}. A request
--   without conditions runs no statement more (NULL array: p_conditions[i] is NULL).
-- * One clock reading per batch (p_now, after the locks, in milliseconds): expiry of holds and of
--   lots (§15) is judged at that instant, and it is the date of every transaction of the batch, so
--   what is expired at a transaction's date never funds it.
-- * A refused element writes nothing and does not stop the others (outside its group).
-- * Idempotency: an element carrying a request key that already posted answers that posting as
--   it was (only if it is the same movement), and posts nothing again.
-- * Wallet groups (CONTRACT §29): the wallets of the batch in a group are found with their locks;
--   when there are any, their groups' running sums move by what their balances changed, once per
--   group and currency at the end of the batch (wallet_groups_watch, wallet_groups_roll), in this
--   same transaction. A batch without one runs nothing more.
-- * Maturing holds (§26): p_mature_in / p_mature_at are passed only by a batch that holds one (the
--   caller sends NULL arrays otherwise); a group (transfer legs) never carries them.
-- * Deferred writes: a transfer or seed outside a group leaves its transaction row and its event
--   to this routine (ledger_move with p_defer), which writes the rows it holds in one statement
--   each (ledger_flush) before any element that could read or precede them in the outbox runs (a
--   group, any other kind, a request key it holds, a movement that answered 'flush_first') and
--   before it returns, so everything a later element reads and everything the caller commits is
--   as if each movement had written its own rows. An asset that answered 'flush_first_asset'
--   (lots, limits or monitors) is not deferred again in this batch.
CREATE OR REPLACE FUNCTION ledger_post(
  p_kind text[], p_project integer[], p_asset uuid[], p_from uuid[], p_to uuid[], p_amount bigint[], p_request text[],
  p_group integer[], p_target uuid[], p_reference text[], p_metadata json[], p_expires_in integer[],
  p_conditions jsonb[] DEFAULT NULL::jsonb[],
  p_mature_in integer[] DEFAULT NULL::integer[], p_mature_at timestamp with time zone[] DEFAULT NULL::timestamp with time zone[]
) RETURNS TABLE (
  idx integer, code text, tx_id uuid, tx_seq bigint, from_balance bigint, to_balance bigint, posted_at timestamptz,
  hold_id uuid, detail jsonb
) LANGUAGE plpgsql AS $fn$
DECLARE
  v_n integer := coalesce(array_length(p_kind, 1), 0);
  v_now timestamptz;
  v_i integer := 1;
  v_last integer;
  r record;
  g_code text;
  g_detail jsonb;
  g_tx uuid[];
  g_seq bigint[];
  g_from bigint[];
  g_to bigint[];
  g_at timestamptz[];
  g_hold uuid[];
  v_defer boolean;
  v_undeferred uuid[] := '{}';
  b_tx transactions[] := '{}';
  b_keys text[] := '{}';
  v_grouped uuid[];
  v_before balances[];
BEGIN
  -- with the locks, the wallets of the batch that are in a group (CONTRACT §29): none, and groups
  -- cost nothing more; else their groups' sums move once per batch (wallet-groups/wallet_groups_*.sql)
  SELECT array_agg(l.id) FILTER (WHERE l.group_id IS NOT NULL) INTO v_grouped
    FROM (SELECT id, group_id FROM wallets WHERE id = ANY (p_from || p_to) ORDER BY id FOR NO KEY UPDATE) l;
  IF v_grouped IS NOT NULL THEN
    v_before := wallet_groups_watch(v_grouped);
  END IF;
  v_now := clock_timestamp()::timestamptz(3);
  WHILE v_i <= v_n LOOP
    v_defer := coalesce(p_group[v_i] IS NULL AND p_conditions[v_i] IS NULL AND p_kind[v_i] IN ('transfer', 'seed'), false)
               AND NOT coalesce(p_asset[v_i] = ANY (v_undeferred), false) AND NOT coalesce(p_request[v_i] = ANY (b_keys), false);
    IF NOT v_defer AND cardinality(b_tx) > 0 THEN
      PERFORM ledger_flush(b_tx);
      b_tx := '{}'; b_keys := '{}';
    END IF;
    IF p_group[v_i] IS NULL AND p_conditions[v_i] IS NULL THEN
      -- `r := f(...)`, not `SELECT * INTO r FROM f(...)`: plpgsql evaluates a call it assigns as a
      -- simple expression, where a FROM clause starts an executor and a function scan per request
      -- (ledger_apply calls ledger_move the same way; bench/posting/posting-cpu.mjs measures it).
      r := ledger_apply(p_kind[v_i], p_project[v_i], p_asset[v_i], p_from[v_i], p_to[v_i], p_amount[v_i], p_request[v_i],
                        p_target[v_i], p_reference[v_i], p_metadata[v_i], p_expires_in[v_i], v_now, v_defer,
                        p_mature_in[v_i], p_mature_at[v_i]);
      IF r.code IN ('flush_first', 'flush_first_asset') THEN
        IF r.code = 'flush_first_asset' THEN
          v_undeferred := v_undeferred || p_asset[v_i];
        END IF;
        IF cardinality(b_tx) > 0 THEN
          PERFORM ledger_flush(b_tx);
          b_tx := '{}'; b_keys := '{}';
        END IF;
        r := ledger_apply(p_kind[v_i], p_project[v_i], p_asset[v_i], p_from[v_i], p_to[v_i], p_amount[v_i], p_request[v_i],
                          p_target[v_i], p_reference[v_i], p_metadata[v_i], p_expires_in[v_i], v_now, false,
                          p_mature_in[v_i], p_mature_at[v_i]);
      ELSIF v_defer AND (r.tx_row).seq IS NOT NULL THEN -- moved (a replay answers 'ok' with no row)
        b_tx := b_tx || r.tx_row;
        IF p_request[v_i] IS NOT NULL THEN
          b_keys := b_keys || p_request[v_i];
        END IF;
      END IF;
      idx := v_i; code := r.code; tx_id := r.tx_id; tx_seq := r.tx_seq; from_balance := r.from_balance;
      to_balance := r.to_balance; posted_at := r.posted_at; hold_id := r.hold_id; detail := r.detail;
      RETURN NEXT;
      v_i := v_i + 1;
      CONTINUE;
    END IF;
    v_last := v_i;
    WHILE v_last < v_n AND p_group[v_last + 1] = p_group[v_i] LOOP
      v_last := v_last + 1;
    END LOOP;
    g_code := NULL;
    BEGIN
      FOR k IN v_i .. v_last LOOP
        r := ledger_apply(p_kind[k], p_project[k], p_asset[k], p_from[k], p_to[k], p_amount[k], p_request[k],
                          p_target[k], p_reference[k], p_metadata[k], p_expires_in[k], v_now);
        -- a replay (its request key already posted, at an earlier clock reading) answers as it was: not judged again
        IF r.code = 'ok' AND p_conditions[k] IS NOT NULL AND r.posted_at = v_now THEN
          r.detail := ledger_conditions(p_project[k], p_conditions[k], v_now);
          IF r.detail IS NOT NULL THEN
            r.code := 'condition_failed';
            IF p_group[k] IS NOT NULL THEN -- a leg of a batch: which leg, and which of its conditions
              r.detail := (r.detail - 'index') || jsonb_build_object('condition', r.detail->'index');
            END IF;
          END IF;
        END IF;
        IF r.code <> 'ok' THEN
          g_code := r.code;
          g_detail := CASE WHEN p_group[k] IS NULL THEN r.detail
                           ELSE coalesce(r.detail, '{}'::jsonb) || jsonb_build_object('index', k - v_i) END;
          -- a lone request's other refusals keep what a refusal keeps (an expired hold's release)
          IF p_group[k] IS NOT NULL OR r.code = 'condition_failed' THEN
            RAISE EXCEPTION 'ledger_post: group refused' USING ERRCODE = 'LP001';
          END IF;
        END IF;
        g_tx[k] := r.tx_id; g_seq[k] := r.tx_seq; g_from[k] := r.from_balance; g_to[k] := r.to_balance; g_at[k] := r.posted_at;
        g_hold[k] := r.hold_id;
      END LOOP;
    EXCEPTION WHEN SQLSTATE 'LP001' THEN
      NULL; -- everything the group wrote is rolled back; the variables keep the refusal
    END;
    FOR k IN v_i .. v_last LOOP
      idx := k;
      IF g_code IS NULL THEN
        code := 'ok'; tx_id := g_tx[k]; tx_seq := g_seq[k]; from_balance := g_from[k];
        to_balance := g_to[k]; posted_at := g_at[k]; hold_id := g_hold[k]; detail := NULL;
      ELSE
        code := g_code; detail := g_detail;
        tx_id := NULL; tx_seq := NULL; from_balance := NULL; to_balance := NULL; posted_at := NULL; hold_id := NULL;
      END IF;
      RETURN NEXT;
    END LOOP;
    v_i := v_last + 1;
  END LOOP;
  IF cardinality(b_tx) > 0 THEN
    PERFORM ledger_flush(b_tx);
  END IF;
  IF v_grouped IS NOT NULL THEN
    PERFORM wallet_groups_roll(v_grouped, v_before);
  END IF;
END
$fn$;
