-- limits_used: what a wallet has used of a limit of `p_window` seconds in one currency and
-- direction at `p_now` (CONTRACT §19). Installed by migrate() like ledger_post; called by
-- the reads (GET /wallets/{id}/limits, GraphQL Wallet.limits). Reads only; writes nothing.
-- limits_check, on the hot path, writes the same rule inline (one statement per side for all of
-- its limits): a change here is made there too.
--
-- Used = the counted movements dated in (p_now − p_window, p_now], plus, for `debit`, the wallet's
-- pending holds as sender created in that window (and not past their expiry at p_now).
--
-- No scan of the window (its cost does not grow with the movements in it):
-- * movements: the running total now (balances.debited / credited, kept by ledger_move in the
--   same row update as the amount) minus the running total on the wallet's last transaction on
--   that side dated at or before the window's start (from_debited / to_credited): one descent of
--   the as-of index (wallet, asset, created_at, seq), as the as-of reads of §14 (ledger.repository.ts
--   cutOf; `created_at > '-infinity'` is that index's predicate). A wallet's rows are dated in
--   seq order (they are written under its lock with the clock read after it), so that row's total
--   counts exactly the movements up to the window's start. Reversals and expiries carry the total
--   unchanged.
-- * pending holds: `held` on the balance row is every pending hold as sender; less those created
--   at or before the window's start and those already past their expiry (a pending hold past
--   its expires_at no longer counts, whether or not it has been released yet). Only those holds
--   are read (holds_pending_created_idx, holds_pending_idx), never the pending holds inside the
--   window, and nothing at all when nothing is held (docs/decisions.md, "Limits").
CREATE OR REPLACE FUNCTION limits_used(p_project integer, p_wallet uuid, p_asset uuid, p_direction text, p_window integer, p_now timestamp with time zone) RETURNS bigint
LANGUAGE plpgsql STABLE AS $fn$
DECLARE
  v_start timestamptz := p_now - make_interval(secs => p_window);
  v_total bigint;
  v_held bigint;
  v_before bigint;
  v_outside bigint;
BEGIN
  SELECT CASE WHEN p_direction = 'debit' THEN b.debited ELSE b.credited END, b.held INTO v_total, v_held
    FROM balances b WHERE b.wallet_id = p_wallet AND b.asset_id = p_asset;
  IF NOT FOUND THEN
    RETURN 0;
  END IF;
  IF p_direction = 'credit' THEN
    SELECT t.to_credited INTO v_before FROM transactions t
     WHERE t.to_wallet_id = p_wallet AND t.asset_id = p_asset AND t.created_at <= v_start AND t.created_at > '-infinity'
     ORDER BY t.created_at DESC, t.seq DESC LIMIT 1;
    RETURN v_total - coalesce(v_before, 0);
  END IF;
  SELECT t.from_debited INTO v_before FROM transactions t
   WHERE t.from_wallet_id = p_wallet AND t.asset_id = p_asset AND t.created_at <= v_start AND t.created_at > '-infinity'
   ORDER BY t.created_at DESC, t.seq DESC LIMIT 1;
  IF v_held > 0 THEN
    SELECT coalesce(sum(h.amount), 0) INTO v_outside FROM holds h
     WHERE h.project_id = p_project AND h.from_wallet_id = p_wallet AND h.asset_id = p_asset AND h.status = 'pending'
       AND (h.created_at <= v_start OR holds_expired(h, p_now));
    v_total := v_total + v_held - v_outside;
  END IF;
  RETURN v_total - coalesce(v_before, 0);
END
$fn$;
