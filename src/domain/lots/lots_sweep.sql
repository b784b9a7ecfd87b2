-- lots_sweep: the lot half of one background expiry round (src/domain/shared/expiry-sweeper.ts,
-- fed by LotRepository.sweep), installed by migrate() like ledger_post. One short database
-- transaction: lots past their expires_at with something unreserved left, earliest first,
-- `p_limit` of them, have their expiry posted through lots_settle, wallet by wallet, under the
-- wallet's lock taken with SKIP LOCKED (a locked wallet's lots stay due for a later round);
-- lots_settle re-reads the lots under the lock, so a lot is expired exactly once. The holds that
-- fall due are the hold half's (src/domain/holds/holds_sweep.sql).
--
-- Returns how many expiry transactions were posted (`expired`), 0 holds released (`released`, kept
-- for instances of the previous release during a rolling deploy), how many wallets with due lots
-- were left because another transaction held them (`busy`), whether the round was full (more may
-- be due), and the largest lag, in milliseconds, from a lot's expires_at to the round.
DROP FUNCTION IF EXISTS lots_sweep(integer);
CREATE OR REPLACE FUNCTION lots_sweep(p_limit integer)
RETURNS TABLE (expired integer, released integer, busy integer, full_round boolean, max_lag_ms bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_now timestamptz := clock_timestamp()::timestamptz(3);
  v_due record;
  v_count integer;
  v_selected integer := 0;
  v_group uuid;
  v_before balances[];
BEGIN
  -- released stays 0 here (the holds are holds_sweep's): an instance of the previous release, which read
  -- it from this routine, still finds the column during a rolling deploy
  expired := 0; released := 0; busy := 0; max_lag_ms := NULL;
  FOR v_due IN
    SELECT d.project_id, d.wallet_id, d.asset_id, min(d.expires_at) AS first_due, count(*)::integer AS lots
      FROM (SELECT l.project_id, l.wallet_id, l.asset_id, l.expires_at FROM lots l
             WHERE lots_due(l, v_now)
             ORDER BY l.expires_at LIMIT p_limit) d
     GROUP BY d.project_id, d.wallet_id, d.asset_id
     ORDER BY min(d.expires_at)
  LOOP
    v_selected := v_selected + v_due.lots;
    EXIT WHEN expired >= p_limit;
    SELECT group_id INTO v_group FROM wallets WHERE id = v_due.wallet_id FOR NO KEY UPDATE SKIP LOCKED;
    IF NOT FOUND THEN
      busy := busy + 1;
      CONTINUE;
    END IF;
    IF v_group IS NOT NULL THEN -- its groups' sums follow (CONTRACT §29)
      v_before := wallet_groups_watch(ARRAY[v_due.wallet_id]);
    END IF;
    -- settled, not only expired: a hold of this wallet past its expiry that holds_sweep did not
    -- reach (the wallet was busy then) releases its lots first, dated its expires_at, before any
    -- later lot's expiry is posted
    v_count := lots_settle(v_due.project_id, v_due.wallet_id, v_due.asset_id, v_now, p_limit - expired);
    IF v_group IS NOT NULL THEN
      PERFORM wallet_groups_roll(ARRAY[v_due.wallet_id], v_before);
    END IF;
    IF v_count > 0 THEN
      expired := expired + v_count;
      max_lag_ms := greatest(coalesce(max_lag_ms, 0), floor(extract(epoch FROM clock_timestamp() - v_due.first_due) * 1000)::bigint);
    END IF;
  END LOOP;
  full_round := v_selected >= p_limit OR expired >= p_limit;
  RETURN NEXT;
END
$fn$;
