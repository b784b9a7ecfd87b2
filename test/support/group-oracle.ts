import type { TestApp } from './test-app.js';

/**
 * The roll-up of every group of a project computed the slow way (every wallet of each subtree,
 * scanned) against the running sums the service keeps (wallet_group_balances, wallet_groups.wallets):
 * the list of differences, empty when they agree.
 */
export async function groupSumDrift(t: Pick<TestApp, 'db'>, projectId: number): Promise<unknown[]> {
  return t.db.query(
    `WITH scanned AS (
       SELECT g.id AS group_id, b.asset_id, sum(b.amount) AS amount, sum(b.held) AS held, count(b.*)::int AS holders
         FROM wallet_groups g
         JOIN wallet_groups d ON d.project_id = g.project_id AND g.id = ANY (d.path)
         JOIN wallets w ON w.project_id = d.project_id AND w.group_id = d.id
         JOIN balances b ON b.wallet_id = w.id
        WHERE g.project_id = $1
        GROUP BY g.id, b.asset_id),
     stored AS (SELECT group_id, asset_id, amount, held, holders FROM wallet_group_balances WHERE project_id = $1 AND (holders <> 0 OR amount <> 0 OR held <> 0)),
     counts AS (
       SELECT g.id, g.wallets, (SELECT count(*) FROM wallet_groups d JOIN wallets w ON w.project_id = d.project_id AND w.group_id = d.id
                                 WHERE d.project_id = g.project_id AND g.id = ANY (d.path)) AS scanned
         FROM wallet_groups g WHERE g.project_id = $1)
     SELECT 'sums' AS what, coalesce(s.group_id, r.group_id) AS group_id, coalesce(s.asset_id, r.asset_id) AS asset_id,
            s.amount::text AS scanned_amount, r.amount::text AS stored_amount, s.held::text AS scanned_held, r.held::text AS stored_held,
            s.holders AS scanned_holders, r.holders AS stored_holders
       FROM scanned s FULL JOIN stored r ON r.group_id = s.group_id AND r.asset_id = s.asset_id
      WHERE s.amount IS DISTINCT FROM r.amount OR s.held IS DISTINCT FROM r.held OR s.holders IS DISTINCT FROM r.holders
     UNION ALL
     SELECT 'wallets', c.id, NULL, c.scanned::text, c.wallets::text, NULL, NULL, NULL, NULL FROM counts c WHERE c.scanned <> c.wallets`,
    [projectId],
  );
}
