-- analytics_apply: adds one fold's deltas (analytics_fold.sql) to analytics_buckets.
--
-- `outstanding` of a bucket is the customers' total at its END, so a delta in bucket B also moves
-- every later bucket of its project, currency and grain by its `net`. Postings are dated at their
-- posting time, so nearly always B is the newest bucket and nothing later exists; an expiry
-- dated back (a lot's expires_at, posted up to 60 s later, or later after downtime) moves the
-- few buckets after it. Two statements:
-- 1. the buckets new to the table start from the outstanding at the end of the bucket before
--    them (the statement reads the table as it was before it, so every new bucket sees only
--    buckets that existed before this fold: the ones in between carry no posting yet);
-- 2. every bucket at or after the batch's earliest bucket adds the batch's net up to and
--    including itself, and a touched bucket its flows and newly active wallets.
CREATE OR REPLACE FUNCTION analytics_apply(p_deltas analytics_delta[])
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO analytics_buckets (project_id, asset_id, grain, start, outstanding)
  SELECT d.project_id, d.asset_id, d.grain, d.start,
         coalesce((SELECT b.outstanding FROM analytics_buckets b
                    WHERE b.project_id = d.project_id AND b.asset_id = d.asset_id AND b.grain = d.grain AND b.start < d.start
                    ORDER BY b.start DESC LIMIT 1), 0)
    FROM unnest(p_deltas) d
  ON CONFLICT DO NOTHING;

  UPDATE analytics_buckets b
     SET issued = b.issued + coalesce(x.issued, 0),
         redeemed = b.redeemed + coalesce(x.redeemed, 0),
         transferred = b.transferred + coalesce(x.transferred, 0),
         expired = b.expired + coalesce(x.expired, 0),
         reversed = b.reversed + coalesce(x.reversed, 0),
         active_wallets = b.active_wallets + coalesce(x.wallets, 0),
         outstanding = b.outstanding + x.net_through
    FROM (
      SELECT later.project_id, later.asset_id, later.grain, later.start,
             d.issued, d.redeemed, d.transferred, d.expired, d.reversed, d.wallets,
             (SELECT coalesce(sum(e.net), 0) FROM unnest(p_deltas) e
               WHERE e.project_id = later.project_id AND e.asset_id = later.asset_id AND e.grain = later.grain
                 AND e.start <= later.start) AS net_through
        FROM (SELECT project_id, asset_id, grain, min(start) AS first FROM unnest(p_deltas) GROUP BY 1, 2, 3) k
        JOIN analytics_buckets later
          ON later.project_id = k.project_id AND later.asset_id = k.asset_id AND later.grain = k.grain AND later.start >= k.first
        LEFT JOIN unnest(p_deltas) d
          ON d.project_id = later.project_id AND d.asset_id = later.asset_id AND d.grain = later.grain AND d.start = later.start
    ) x
   WHERE b.project_id = x.project_id AND b.asset_id = x.asset_id AND b.grain = x.grain AND b.start = x.start
     AND (x.issued IS NOT NULL OR x.net_through <> 0);
END
$fn$;
