-- webhook_sequence_calls: numbers the stored inbound calls (webhook_events) committed since its
-- last run, in commit order (CONTRACT §5/§16: `webhookEvents` pages without gaps or repeats while
-- calls go on). Called before each read of the list.
--
-- A call is stored with `seq` NULL (record() and webhook_post, in the posting's transaction). One
-- caller at a time (a transaction-scoped advisory lock; a concurrent caller waits, then finds what
-- is left). Rows still uncommitted are invisible here and get a higher number from a later run,
-- so a reader that has paged past seq N never sees a new call at or below N. Within one run, rows
-- are numbered in `pos` (insert) order. Nothing to number costs one probe of a small partial
-- index, without the lock. Returns how many it numbered.
CREATE OR REPLACE FUNCTION webhook_sequence_calls()
RETURNS integer LANGUAGE plpgsql AS $fn$
DECLARE
  v_base bigint;
  v_count integer;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_events WHERE seq IS NULL) THEN
    RETURN 0;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('webhook_sequence_calls'));
  SELECT coalesce(max(seq), 0) INTO v_base FROM webhook_events;
  WITH pending AS (
    SELECT pos, row_number() OVER (ORDER BY pos) AS n FROM webhook_events WHERE seq IS NULL
  )
  UPDATE webhook_events e SET seq = v_base + p.n FROM pending p WHERE e.pos = p.pos;
  GET DIAGNOSTICS v_count = ROW_COUNT;
  RETURN v_count;
END
$fn$;
