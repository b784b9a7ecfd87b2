DROP FUNCTION IF EXISTS limits_check(integer, uuid, uuid, uuid, bigint, boolean, boolean, bigint, timestamp with time zone);
-- limits_check: the limits a movement or a new hold must keep (CONTRACT §19). Installed by
-- migrate() like ledger_post; called by ledger_move (transfers, batch legs, seeds, captures and
-- the flows' postings) and by holds_create for a new hold, under the posting's wallet locks
-- (ledger_post locks every wallet of its batch first), after the wallets' status was checked and
-- before any funds move. Only called when the asset has limits (assets.limit_count > 0).
--
-- Returns NULL when the movement may go on, else the refusal's detail {limitId, remaining}
-- (remaining in minor units, as text, never below 0) of the first limit it would break: the
-- sender's debit limits first, then the receiver's credit limits (`p_credit`: not for a hold,
-- which credits nobody yet), each oldest first. A limit is broken when used + p_amount > its amount.
--
-- A capture (`p_hold`, the hold it settles, locked by holds_capture) is checked only against the
-- sender's debit limits whose window no longer contains the hold's creation (CONTRACT §19 as
-- clarified with part four): inside such a window the hold has stopped counting, so its capture
-- is a new movement there, and letting it through unchecked would take used past the limit (two
-- captures of aged holds moved 20 against a limit of 10, issue 36). Where the window still
-- contains the hold's creation the hold counts already, and capturing it replaces its amount with
-- the captured part (no more than it): used cannot grow, nothing to check. `p_hold` NULL (a
-- transfer, a leg, a flow's posting, a new hold): every debit limit of the sender.
--
-- Cost: ONE statement per side for all of that side's limits (they are on the hot path of every
-- posting in a limited currency). `used` is limits_window_used.sql's rule (the reads' too, through
-- limits_used), inlined, per limit, against the side's balance row read once: the running total
-- now (debited / credited) minus the total on the wallet's last transaction at or before the
-- window's start (one descent of the as-of index, never a scan of the window), plus for `debit`
-- the pending holds inside the window (`held` less those outside it, read only when something is
-- held). test/domain/limits/limits-model.test.ts checks refusals and GET /wallets/{id}/limits
-- against one model.
--
-- Exact under concurrency: used is read under the wallet's row lock, which every posting and
-- hold that moves it holds until commit, on any number of instances; a batch's later legs see its
-- earlier ones (their rows and running totals are already written).
--
-- insufficient_funds comes before limit_exceeded: when a limit would refuse, the sender's
-- available (amount − held + credit_limit, `p_release` being held that this movement releases; expired holds
-- released first, as the debit itself would) is tested, and a movement that funds could not
-- cover is left to the caller's debit to refuse (NULL). A sender without a balance row cannot
-- be debited at all: NULL at once.
CREATE OR REPLACE FUNCTION limits_check(p_project integer, p_asset uuid, p_from uuid, p_to uuid, p_amount bigint, p_hold uuid, p_credit boolean, p_release bigint, p_now timestamp with time zone) RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
  v_refusal jsonb;
  v_funded boolean;
BEGIN
  IF p_from IS NOT NULL THEN
    -- the sender's balance row once (the outer side of the join), its debit limits oldest first
    -- (for a capture, those whose window starts at or after its hold's creation: the hold's row
    -- read once, an init plan), each limit's window start and held-outside-the-window by index descents
    SELECT r.refusal, b.amount - (b.held - p_release) + b.credit_limit >= p_amount INTO v_refusal, v_funded
      FROM balances b
      LEFT JOIN LATERAL (
        SELECT jsonb_build_object('limitId', l.id, 'remaining', greatest(l.amount - u.used, 0)::text) AS refusal
          FROM limits_applying(p_from, p_asset, 'debit') l
          CROSS JOIN LATERAL limits_window_used(p_project, p_from, p_asset, 'debit', l.window_seconds, p_now, b.debited, b.held) u
         WHERE (p_hold IS NULL OR (SELECT h.created_at FROM holds h WHERE h.id = p_hold) <= p_now - make_interval(secs => l.window_seconds))
           AND u.used::numeric + p_amount > l.amount
         ORDER BY l.seq
         LIMIT 1
      ) r ON true
     WHERE b.wallet_id = p_from AND b.asset_id = p_asset;
    IF NOT FOUND THEN
      RETURN NULL;
    END IF;
  END IF;
  IF v_refusal IS NULL AND p_credit AND p_to IS NOT NULL THEN
    -- the receiver's running total once (0 before its first balance row), its credit limits oldest first
    SELECT jsonb_build_object('limitId', l.id, 'remaining', greatest(l.amount - u.used, 0)::text) INTO v_refusal
      FROM (SELECT coalesce((SELECT b.credited FROM balances b WHERE b.wallet_id = p_to AND b.asset_id = p_asset), 0) AS total) c
      CROSS JOIN limits_applying(p_to, p_asset, 'credit') l
      CROSS JOIN LATERAL limits_window_used(p_project, p_to, p_asset, 'credit', l.window_seconds, p_now, c.total, 0) u
     WHERE u.used::numeric + p_amount > l.amount
     ORDER BY l.seq
     LIMIT 1;
  END IF;
  IF v_refusal IS NULL OR p_from IS NULL THEN
    RETURN v_refusal;
  END IF;
  IF v_funded IS NOT TRUE AND holds_release_expired(p_project, p_from, p_asset, p_now) > 0 THEN
    SELECT b.amount - (b.held - p_release) + b.credit_limit >= p_amount INTO v_funded FROM balances b WHERE b.wallet_id = p_from AND b.asset_id = p_asset;
  END IF;
  RETURN CASE WHEN v_funded THEN v_refusal END;
END
$fn$;
