-- ledger_sequence_events: numbers the events committed since its last run (CONTRACT §16).
--
-- One caller at a time (a transaction-scoped advisory lock; a concurrent caller waits, then finds
-- nothing left). Rows still uncommitted are invisible here and get numbered by a later run, so
-- `seq` (per project) and `stream_pos` (global) grow in commit order: a reader that has passed
-- seq N never sees a new event at or below N. Within one run, rows are numbered in `pos` order
-- (the order they were written; a batch's legs keep theirs).
--
-- At most `p_limit` events per call; returns how many it numbered (fewer than `p_limit`: none is
-- left). When it numbered some, it NOTIFYs `ledger_events` with the highest stream_pos, once per
-- call, so every instance's EventHub reads the new events.
CREATE OR REPLACE FUNCTION ledger_sequence_events(p_limit integer)
RETURNS integer LANGUAGE plpgsql AS $fn$
DECLARE
  v_base bigint;
  v_top bigint;
  v_count integer;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('ledger_sequence_events'));
  SELECT coalesce(max(stream_pos), 0) INTO v_base FROM events WHERE stream_pos IS NOT NULL;
  WITH pending AS (
    SELECT e.pos, e.project_id,
           row_number() OVER (PARTITION BY e.project_id ORDER BY e.pos) AS n,
           row_number() OVER (ORDER BY e.pos) AS g,
           count(*) OVER (PARTITION BY e.project_id) AS total
      FROM (SELECT pos, project_id FROM events WHERE seq IS NULL ORDER BY pos LIMIT p_limit) e
  ),
  counted AS (
    INSERT INTO event_counters AS c (project_id, last_seq)
    SELECT DISTINCT project_id, total FROM pending
    ON CONFLICT (project_id) DO UPDATE SET last_seq = c.last_seq + excluded.last_seq
    RETURNING c.project_id, c.last_seq
  ),
  numbered AS (
    SELECT p.pos, k.last_seq - p.total + p.n AS seq, v_base + p.g AS stream_pos
      FROM pending p JOIN counted k USING (project_id)
  ),
  done AS (
    UPDATE events e SET seq = x.seq, stream_pos = x.stream_pos FROM numbered x WHERE e.pos = x.pos
    RETURNING e.stream_pos
  )
  SELECT max(stream_pos), count(*) INTO v_top, v_count FROM done;
  IF v_count > 0 THEN
    PERFORM analytics_fold(v_base + 1, v_top); -- program analytics (§23): src/domain/analytics/analytics_fold.sql
    PERFORM pg_notify('ledger_events', v_top::text);
  END IF;
  RETURN v_count;
END
$fn$;
