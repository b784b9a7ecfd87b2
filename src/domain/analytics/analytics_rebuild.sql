-- analytics_rebuild: recomputes a project's rollups from its transactions alone (CONTRACT §23;
-- `npm run analytics:rebuild -- --project <id>`, after a restore or to check the folds).
--
-- Independent of the incremental path on purpose: one GROUP BY per bucket and a running sum for
-- `outstanding`, where analytics_fold/analytics_apply add batch after batch, so comparing the two
-- checks both. Only the classes are shared (the view analytics_postings, Migration20261126173000_analytics).
--
-- Runs under the numbering's lock (ledger_sequence_events), so no fold runs meanwhile and every
-- numbered posting has been folded: the rebuild takes exactly the postings the folds would have,
-- every committed transaction but those whose event still waits for its number (those are folded
-- when they get it). Transactions older than the events outbox have no event and are included.
-- Returns how many buckets it wrote.
CREATE OR REPLACE FUNCTION analytics_rebuild(p_project integer)
RETURNS integer LANGUAGE plpgsql AS $fn$
DECLARE
  v_buckets integer;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('ledger_sequence_events'));
  DELETE FROM analytics_buckets WHERE project_id = p_project;
  DELETE FROM analytics_active_wallets WHERE project_id = p_project;
  WITH bucketed AS (
    SELECT p.*, g.grain, date_trunc(g.grain, p.created_at, 'UTC') AS start
      FROM analytics_postings p
     CROSS JOIN (VALUES ('hour'), ('day')) g (grain)
     WHERE p.project_id = p_project
       AND NOT EXISTS (SELECT 1 FROM events e WHERE e.seq IS NULL AND e.project_id = p_project AND e.subject_id = p.id)
  ),
  members AS (
    INSERT INTO analytics_active_wallets (project_id, asset_id, grain, start, wallet_id)
    SELECT DISTINCT b.project_id, b.asset_id, b.grain, b.start, w.id
      FROM bucketed b CROSS JOIN LATERAL (VALUES (b.from_customer), (b.to_customer)) w (id)
     WHERE w.id IS NOT NULL
    RETURNING asset_id, grain, start
  ),
  counts AS (
    SELECT asset_id, grain, start, count(*)::integer AS wallets FROM members GROUP BY 1, 2, 3
  ),
  sums AS (
    SELECT asset_id, grain, start,
           sum(issued) AS issued, sum(redeemed) AS redeemed, sum(transferred) AS transferred,
           sum(expired) AS expired, sum(reversed) AS reversed, sum(issued - redeemed - expired) AS net
      FROM bucketed GROUP BY 1, 2, 3
  )
  INSERT INTO analytics_buckets (project_id, asset_id, grain, start, issued, redeemed, transferred, expired, reversed, active_wallets, outstanding)
  SELECT p_project, s.asset_id, s.grain, s.start, s.issued, s.redeemed, s.transferred, s.expired, s.reversed, coalesce(c.wallets, 0),
         sum(s.net) OVER (PARTITION BY s.asset_id, s.grain ORDER BY s.start)
    FROM sums s LEFT JOIN counts c USING (asset_id, grain, start);
  GET DIAGNOSTICS v_buckets = ROW_COUNT;
  RETURN v_buckets;
END
$fn$;
