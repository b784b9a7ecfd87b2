-- limits_window_used: what a wallet has used of a limit of `p_window` seconds in one currency and
-- direction at `p_now` (CONTRACT §19), given its balance row's running total on that side
-- (`p_total`: balances.debited or credited) and, for `debit`, its `held` (`p_held`). The one place
-- this rule is written: limits_check (the hot path, against the balance row it reads once per
-- side) and limits_used (the reads) both use it.
--
-- Used = the counted movements dated in (p_now − p_window, p_now], plus, for `debit`, the wallet's
-- pending holds as sender created in that window (and not past their expiry at p_now).
--
-- No scan of the window (its cost does not grow with the movements in it):
-- * movements: the running total now (kept by ledger_move in the same row update as the amount)
--   minus the running total on the wallet's last transaction on that side dated at or before the
--   window's start (from_debited / to_credited): one descent of the as-of index (wallet, asset,
--   created_at, seq), as the as-of reads of §14 (ledger.repository.ts cutOf; `created_at >
--   '-infinity'` is that index's predicate). A wallet's rows are dated in seq order (they are
--   written under its lock with the clock read after it), so that row's total counts exactly the
--   movements up to the window's start. Reversals and expiries carry the total unchanged.
-- * pending holds: `held` is every pending hold as sender; less those created at or before the
--   window's start and those already past their expiry (a pending hold past its expires_at no
--   longer counts, whether or not it has been released yet). Only those holds are read
--   (holds_pending_created_idx, holds_pending_idx), never the pending holds inside the window,
--   and nothing at all when nothing is held (docs/decisions/limits.md).
--
-- One SELECT, STABLE, no SET clause, not strict, not SECURITY DEFINER: PostgreSQL inlines it where
-- it is used in FROM, so limits_check's statement holds the index descents themselves, and a
-- constant `p_direction` leaves only that side's (test/domain/limits/limits-inlined.test.ts).
CREATE OR REPLACE FUNCTION limits_window_used(
  p_project integer, p_wallet uuid, p_asset uuid, p_direction text, p_window integer, p_now timestamp with time zone,
  p_total bigint, p_held bigint
) RETURNS TABLE (used bigint) LANGUAGE sql STABLE AS $fn$
  SELECT (p_total
          - coalesce(CASE WHEN p_direction = 'debit'
                       THEN (SELECT t.from_debited FROM transactions t
                              WHERE t.from_wallet_id = p_wallet AND t.asset_id = p_asset
                                AND t.created_at <= p_now - make_interval(secs => p_window) AND t.created_at > '-infinity'
                              ORDER BY t.created_at DESC, t.seq DESC LIMIT 1)
                       ELSE (SELECT t.to_credited FROM transactions t
                              WHERE t.to_wallet_id = p_wallet AND t.asset_id = p_asset
                                AND t.created_at <= p_now - make_interval(secs => p_window) AND t.created_at > '-infinity'
                              ORDER BY t.created_at DESC, t.seq DESC LIMIT 1)
                     END, 0)
          + CASE WHEN p_direction = 'debit' AND p_held > 0 THEN
              p_held - (SELECT coalesce(sum(h.amount), 0) FROM holds h
                         WHERE h.project_id = p_project AND h.from_wallet_id = p_wallet AND h.asset_id = p_asset AND h.status = 'pending'
                           AND (h.created_at <= p_now - make_interval(secs => p_window) OR holds_expired(h, p_now)))
            ELSE 0 END)::bigint
$fn$;
