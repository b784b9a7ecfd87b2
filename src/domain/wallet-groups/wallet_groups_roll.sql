-- wallet_groups_roll: the second half (after wallet_groups_watch, under its locks, in the same
-- database transaction): what the balance rows of `p_wallets` gained since `p_before` (amount,
-- held, and a first row in a currency: `holders`) is added to the sums of each wallet's group and
-- of every ancestor (`path`), in ONE statement for the whole batch: one row update per group and
-- currency, however many postings the batch made. Rows are written in key order, so concurrent
-- batches on any number of instances never wait on each other in a circle; each adds to the sum
-- it finds committed (`s.amount + EXCLUDED.amount` under the row lock), so the sums are exact
-- under any interleaving. A group and currency that changed by nothing is not written.
CREATE OR REPLACE FUNCTION wallet_groups_roll(p_wallets uuid[], p_before balances[]) RETURNS void LANGUAGE sql AS $fn$
  INSERT INTO wallet_group_balances AS s (project_id, group_id, asset_id, amount, held, holders)
  SELECT w.project_id, up.group_id, d.asset_id, sum(d.amount), sum(d.held), sum(d.holders)::integer
    FROM (SELECT wallet_id, asset_id,
                 coalesce(a.amount, 0) - coalesce(b.amount, 0) AS amount,
                 coalesce(a.held, 0) - coalesce(b.held, 0) AS held,
                 (a.wallet_id IS NOT NULL)::integer - (b.wallet_id IS NOT NULL)::integer AS holders
            FROM (SELECT n.wallet_id, n.asset_id, n.amount, n.held FROM balances n WHERE n.wallet_id = ANY (p_wallets)) a
            FULL JOIN (SELECT o.wallet_id, o.asset_id, o.amount, o.held FROM unnest(p_before) o) b USING (wallet_id, asset_id)) d
    JOIN wallets w ON w.id = d.wallet_id
    JOIN wallet_groups g ON g.project_id = w.project_id AND g.id = w.group_id
    CROSS JOIN LATERAL unnest(g.path) AS up (group_id)
   WHERE d.amount <> 0 OR d.held <> 0 OR d.holders <> 0
   GROUP BY w.project_id, up.group_id, d.asset_id
   ORDER BY w.project_id, up.group_id, d.asset_id
  ON CONFLICT (project_id, group_id, asset_id) DO UPDATE
    SET amount = s.amount + EXCLUDED.amount, held = s.held + EXCLUDED.held, holders = s.holders + EXCLUDED.holders;
$fn$;
