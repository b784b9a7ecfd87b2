-- analytics_fold: folds the postings of one numbered batch of events (stream_pos p_first..p_last)
-- into the hourly and daily rollups of their project and currency (CONTRACT §23).
--
-- Called by ledger_sequence_events right after it numbers the batch, in its transaction and
-- under its lock: numbering happens once per event and is serialised across every instance, so
-- each posting is folded exactly once, in commit order, and never on the posting's own path (no
-- bucket row is written, or locked, by a posting transaction). A posting is one event:
-- `transaction.posted` (transfers, seeds, batch legs, captures, reversals) or `points.expired`
-- (expiries); the other types move no money.
--
-- Each bucket the batch touches gets one analytics_delta: its flows, `net` (issued - redeemed -
-- expired, the change of the customers' total: the view analytics_postings of
-- Migration20261126173000_analytics) and `wallets`, how many of its customer wallets are new to
-- the bucket's set (the INSERT's ON CONFLICT DO NOTHING skips the wallets already counted, by an
-- earlier fold or by another posting of this one). analytics_apply then writes the deltas.
CREATE OR REPLACE FUNCTION analytics_fold(p_first bigint, p_last bigint)
RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  v_deltas analytics_delta[];
BEGIN
  WITH bucketed AS (
    SELECT p.*, g.grain, date_trunc(g.grain, p.created_at, 'UTC') AS start
      FROM events e
      JOIN analytics_postings p ON p.id = e.subject_id
     CROSS JOIN (VALUES ('hour'), ('day')) g (grain)
     WHERE e.stream_pos BETWEEN p_first AND p_last AND e.type IN ('transaction.posted', 'points.expired')
  ),
  fresh AS (
    INSERT INTO analytics_active_wallets (project_id, asset_id, grain, start, wallet_id)
    SELECT DISTINCT b.project_id, b.asset_id, b.grain, b.start, w.id
      FROM bucketed b CROSS JOIN LATERAL (VALUES (b.from_customer), (b.to_customer)) w (id)
     WHERE w.id IS NOT NULL
    ON CONFLICT DO NOTHING
    RETURNING project_id, asset_id, grain, start
  ),
  fresh_counts AS (
    SELECT project_id, asset_id, grain, start, count(*)::integer AS wallets FROM fresh GROUP BY 1, 2, 3, 4
  ),
  sums AS (
    SELECT project_id, asset_id, grain, start,
           sum(issued) AS issued, sum(redeemed) AS redeemed, sum(transferred) AS transferred,
           sum(expired) AS expired, sum(reversed) AS reversed, sum(issued - redeemed - expired) AS net
      FROM bucketed GROUP BY 1, 2, 3, 4
  )
  SELECT array_agg(ROW(s.project_id, s.asset_id, s.grain, s.start, s.issued, s.redeemed, s.transferred, s.expired, s.reversed,
                       s.net, coalesce(f.wallets, 0))::analytics_delta)
    INTO v_deltas
    FROM sums s LEFT JOIN fresh_counts f USING (project_id, asset_id, grain, start);
  IF v_deltas IS NOT NULL THEN
    PERFORM analytics_apply(v_deltas);
  END IF;
END
$fn$;
