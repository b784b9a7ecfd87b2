-- holds_mature_sweep: one project's round of the maturity sweep (CONTRACT §26), the maturity
-- source of the background sweeper (src/domain/shared/expiry-sweeper.ts, fed by
-- HoldRepository.sweepMaturing, which finds the projects with due holds and calls this once per
-- project, each its own short database transaction).
--
-- Takes up to `p_limit` of the project's maturing holds whose capture is due (holds_maturity_due),
-- earliest first, each with the row locks of BOTH its wallets (FOR NO KEY UPDATE ... SKIP LOCKED, in
-- the statement that selects them; the lock a posting takes first, ledger_post). A hold one of
-- whose wallets another transaction holds (a posting, another instance's round) is skipped, not
-- waited for, and stays due for a later round; skipped rows do not count in the limit, so a busy
-- wallet never stalls the others. So instances running rounds at once take disjoint holds, and each
-- hold is captured exactly once: holds_mature re-reads it under the locks (a capture or void that
-- committed first leaves it not pending: 'gone'). Waits this round can still meet (a row whose
-- wallet lock it holds) are bounded by lock_timeout: the round fails whole and is retried.
--
-- Returns how many holds matured, were refused (retried in a minute), were voided (refused for
-- 24 h), how many due holds were left busy, whether the round was full (more may be due), and the
-- largest lag, in milliseconds, from a first attempt's matures_at to its capture.
CREATE OR REPLACE FUNCTION holds_mature_sweep(p_project integer, p_limit integer)
RETURNS TABLE (matured integer, refused integer, voided integer, busy integer, full_round boolean, max_lag_ms bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_now timestamptz := clock_timestamp()::timestamptz(3);
  v_due record;
  v_taken integer := 0;
  r record;
BEGIN
  PERFORM set_config('lock_timeout', '5s', true);
  matured := 0; refused := 0; voided := 0; busy := 0; max_lag_ms := NULL;
  FOR v_due IN
    SELECT h.id, h.matures_at, h.maturity_refused_at IS NULL AS first_attempt
      FROM holds h
      JOIN wallets wf ON wf.id = h.from_wallet_id
      JOIN wallets wt ON wt.id = h.to_wallet_id
     WHERE h.project_id = p_project AND holds_maturity_due(h, v_now)
     ORDER BY h.maturity_due_at
     LIMIT p_limit
       FOR NO KEY UPDATE OF wf, wt SKIP LOCKED
  LOOP
    v_taken := v_taken + 1;
    r := holds_mature(p_project, v_due.id, v_now);
    CASE r.outcome
      WHEN 'matured' THEN
        matured := matured + 1;
        IF v_due.first_attempt THEN
          max_lag_ms := greatest(coalesce(max_lag_ms, 0), floor(extract(epoch FROM clock_timestamp() - v_due.matures_at) * 1000)::bigint);
        END IF;
      WHEN 'refused' THEN refused := refused + 1;
      WHEN 'voided' THEN voided := voided + 1;
      ELSE NULL;
    END CASE;
  END LOOP;
  full_round := v_taken >= p_limit;
  IF NOT full_round THEN
    -- what is still due was skipped: a wallet of it was held by another transaction
    SELECT count(*)::integer INTO busy FROM holds h WHERE h.project_id = p_project AND holds_maturity_due(h, v_now);
  END IF;
  RETURN NEXT;
END
$fn$;
