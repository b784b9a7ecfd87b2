-- lots_sweep: one round of the background expiry sweeper (src/domain/lots/lot-sweeper.ts),
-- installed by migrate() like ledger_post. Takes the due lots (`expires_at` passed, something
-- unreserved left) earliest first, `p_limit` of them, and posts their expiry through
-- lots_settle (lots_expire_due after any expired hold's release), wallet by wallet, each under the wallet's row lock; at most about `p_limit`
-- expiries in all, so one round is one short database transaction. First, holds past their
-- expires_at still stored pending are released (their `hold.expired` events, §16), the wallets
-- whose holds reserved lots settled first (lots_settle), since the released parts of expired lots
-- are due at the hold's expiry.
--
-- Safe with any number of instances: a wallet is locked with SKIP LOCKED, so two sweepers never
-- wait for each other (nor for a posting; ledger_post expires a wallet's due lots itself before
-- it touches the wallet), and lots_settle re-reads the lots under the lock, so a lot is
-- expired exactly once. A skipped wallet's lots stay due for the next round.
--
-- Returns how many expiry transactions were posted, how many wallets were skipped (locked),
-- whether the round was full (more may be due), and the largest lag, in milliseconds, between
-- a lot's `expires_at` and the posting of its expiry.
CREATE OR REPLACE FUNCTION lots_sweep(p_limit integer)
RETURNS TABLE (expired integer, skipped integer, full_round boolean, max_lag_ms bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_now timestamptz := clock_timestamp()::timestamptz(3);
  v_due record;
  v_count integer;
  v_selected integer := 0;
BEGIN
  expired := 0; skipped := 0; max_lag_ms := NULL;
  -- Holds past their expires_at still stored pending (any asset): released, which writes their
  -- `hold.expired` (CONTRACT §16: within 60 s of expires_at); those that reserved lots first settle
  -- the wallet, since their released parts are due at the hold's expiry.
  FOR v_due IN
    SELECT DISTINCT h.project_id, h.from_wallet_id AS wallet_id, h.asset_id
      FROM (SELECT project_id, from_wallet_id, asset_id FROM holds WHERE status = 'pending' AND expires_at <= v_now ORDER BY expires_at LIMIT p_limit) h
  LOOP
    PERFORM 1 FROM wallets WHERE id = v_due.wallet_id FOR NO KEY UPDATE SKIP LOCKED;
    IF NOT FOUND THEN
      skipped := skipped + 1;
      CONTINUE;
    END IF;
    expired := expired + lots_settle(v_due.project_id, v_due.wallet_id, v_due.asset_id, v_now);
    PERFORM ledger_release_expired(v_due.project_id, v_due.wallet_id, v_due.asset_id, v_now);
  END LOOP;
  FOR v_due IN
    SELECT d.project_id, d.wallet_id, d.asset_id, min(d.expires_at) AS first_due, count(*)::integer AS lots
      FROM (SELECT l.project_id, l.wallet_id, l.asset_id, l.expires_at FROM lots l
             WHERE l.live AND l.expires_at <= v_now AND l.remaining > l.held
             ORDER BY l.expires_at LIMIT p_limit) d
     GROUP BY d.project_id, d.wallet_id, d.asset_id
     ORDER BY min(d.expires_at)
  LOOP
    v_selected := v_selected + v_due.lots;
    EXIT WHEN expired >= p_limit;
    PERFORM 1 FROM wallets WHERE id = v_due.wallet_id FOR NO KEY UPDATE SKIP LOCKED;
    IF NOT FOUND THEN
      skipped := skipped + 1;
      CONTINUE;
    END IF;
    -- settled, not only expired: a hold of this wallet past its expiry that the first loop did not
    -- reach (the round was full, or the wallet was locked then) releases its lots first, dated its
    -- expires_at, before any later lot's expiry is posted
    v_count := lots_settle(v_due.project_id, v_due.wallet_id, v_due.asset_id, v_now, p_limit - expired);
    IF v_count > 0 THEN
      expired := expired + v_count;
      max_lag_ms := greatest(coalesce(max_lag_ms, 0), floor(extract(epoch FROM clock_timestamp() - v_due.first_due) * 1000)::bigint);
    END IF;
  END LOOP;
  full_round := v_selected >= p_limit OR expired >= p_limit;
  RETURN NEXT;
END
$fn$;
