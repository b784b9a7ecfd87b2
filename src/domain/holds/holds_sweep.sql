-- holds_sweep: the hold half of one background expiry round (src/domain/shared/expiry-sweeper.ts,
-- fed by HoldRepository.sweepDue), installed by migrate() like ledger_post. One short database
-- transaction:
--
-- Holds past their expires_at still stored pending (any asset) are released, which writes their
-- `hold.expired` (CONTRACT §16: within 60 s of expires_at, even when 10,000 fall due in the same
-- second and some of their wallets are busy). The unit of work is the sender's wallet: up to
-- `p_limit` wallets with due holds, earliest due first, each taken with its row lock (FOR NO KEY
-- UPDATE SKIP LOCKED) in the statement that selects them. So instances running rounds at once
-- take disjoint wallets (the second skips the first's and takes the next ones), and a wallet a
-- posting holds is left for a later round without holding up the others. Each wallet taken is
-- settled (lots_settle: holds that reserved lots release them as of their expiry, and lots due
-- before them expire first) and has all its due holds released (holds_release_expired).
-- Why the wallet and not the hold rows (SKIP LOCKED on holds): a wallet's due holds are released
-- together, under its lock (the balance's `held`, the lots they reserved); two sweepers each
-- holding some hold rows and one wallet would wait on each other's rows. Here a sweeper waits on
-- nothing: every lock it takes is SKIP LOCKED, and a hold row is only ever locked by whoever
-- holds its wallet.
--
-- Returns the expiry transactions lots_settle posted on the way (`expired`), how many holds were
-- released (`released`), how many wallets with due holds were left because another transaction
-- held them (`busy`), whether the round was full (more may be due), and the largest lag, in
-- milliseconds, from a hold's expires_at to its release.
CREATE OR REPLACE FUNCTION holds_sweep(p_limit integer)
RETURNS TABLE (expired integer, released integer, busy integer, full_round boolean, max_lag_ms bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_now timestamptz := clock_timestamp()::timestamptz(3);
  v_due record;
  v_count integer;
  v_wallets integer := 0;
  v_before balances[];
BEGIN
  expired := 0; released := 0; busy := 0; max_lag_ms := NULL;
  FOR v_due IN
    SELECT d.project_id, w.id AS wallet_id, d.asset_id, d.first_due, w.group_id
      FROM (SELECT h.from_wallet_id, h.project_id, h.asset_id, min(h.expires_at) AS first_due
              FROM holds h WHERE holds_expired(h, v_now)
             GROUP BY h.from_wallet_id, h.project_id, h.asset_id) d
      JOIN wallets w ON w.id = d.from_wallet_id
     ORDER BY d.first_due
     LIMIT p_limit
       FOR NO KEY UPDATE OF w SKIP LOCKED
  LOOP
    v_wallets := v_wallets + 1;
    SELECT count(*)::integer INTO v_count FROM holds h
     WHERE h.project_id = v_due.project_id AND h.from_wallet_id = v_due.wallet_id AND h.asset_id = v_due.asset_id
       AND holds_expired(h, v_now);
    IF v_due.group_id IS NOT NULL THEN -- its groups' sums follow (CONTRACT §29)
      v_before := wallet_groups_watch(ARRAY[v_due.wallet_id]);
    END IF;
    expired := expired + lots_settle(v_due.project_id, v_due.wallet_id, v_due.asset_id, v_now);
    PERFORM holds_release_expired(v_due.project_id, v_due.wallet_id, v_due.asset_id, v_now);
    IF v_due.group_id IS NOT NULL THEN
      PERFORM wallet_groups_roll(ARRAY[v_due.wallet_id], v_before);
    END IF;
    released := released + v_count;
    max_lag_ms := greatest(coalesce(max_lag_ms, 0), floor(extract(epoch FROM clock_timestamp() - v_due.first_due) * 1000)::bigint);
  END LOOP;
  -- wallets with due holds that a round could not take: held by a posting or by another sweeper
  IF v_wallets < p_limit THEN
    SELECT count(*)::integer INTO busy FROM (
      SELECT DISTINCT h.from_wallet_id FROM holds h WHERE holds_expired(h, v_now)
    ) left_over;
  END IF;
  full_round := v_wallets >= p_limit;
  RETURN NEXT;
END
$fn$;
