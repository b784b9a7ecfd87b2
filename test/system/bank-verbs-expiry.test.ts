import { startTestApp, type TestApp } from '../support/test-app.js';
import { Api } from './support/http.js';
import { expiredOf, historyViolations } from './support/invariants.js';
import { provisionBank } from './support/provision.js';
import { runVerbsBank } from './support/verbs-bank.js';
import { verbsViolations } from './support/verbs-invariants.js';

const LIFETIMES = [1, 2, 3];

/**
 * The bank workload with every verb (transfers, holds — a third expiring after 1–2 s —, captures,
 * voids, reversals, batches) on an asset whose points expire after 1–3 s (changed every 300 ms),
 * a 200 ms sweeper: lots are reserved by holds, consumed by captures, released by voids, partial
 * captures and hold expiries, and expire all through the run (CONTRACT §15 with §10). Then, once
 * every lot and short hold is past its expiry: the verbs' invariants with expiries
 * (seeded − returned − expired = balances), every history, and the lot rows against the holds.
 */
describe('bank workload with verbs on an expiring asset', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ lotSweep: { intervalMs: 200, batchSize: 100 } });
  });
  afterAll(() => t.close());

  it('keeps lots, holds and balances in agreement while lots expire under holds', async () => {
    const key = await t.issueKey('bank-verbs-expiry', 'pro');
    const api = new Api(t.baseUrl, key);
    const { bank, funding } = await provisionBank(api, { customers: 20, seedMinor: 5_000_000n, fundMinor: 20_000n, name: 'expiring verbs bank' });
    const assetId: string = (await api.get(`/assets?projectId=${bank.projectId}`)).body.assets[0].id;
    const setLifetime = async (seconds: number) => {
      const res = await api.put(`/assets/${assetId}`, { expiresAfterSeconds: seconds });
      if (res.status !== 200) throw new Error(`PUT /assets: ${res.status} ${JSON.stringify(res.body)}`);
    };
    await setLifetime(1);
    let writing = true;
    const cycler = (async () => {
      for (let i = 1; writing; i++) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        await setLifetime(LIFETIMES[i % LIFETIMES.length]);
      }
    })();
    const run = await runVerbsBank(api, bank, { writers: 24, opsPerWriter: 40, readers: 4, seed: 20261124, typicalMinor: 5_000n });
    writing = false;
    await cycler;

    // Every lot falls due within 3 s of its credit, every short hold within 2 s of its creation;
    // past that, the sweeper settles both, and nothing can expire any more (points reserved by
    // holds without expiry stay reserved), so the checks below read a ledger at rest.
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    for (const until = Date.now() + 30_000; ; ) {
      const [{ due, stale }] = await t.db.query<{ due: string; stale: string }>(
        `SELECT (SELECT count(*) FROM lots WHERE project_id = $1 AND live AND remaining > held AND expires_at <= now())::text AS due,
                (SELECT count(*) FROM hold_lots r JOIN holds h ON h.id = r.hold_id WHERE r.project_id = $1 AND (h.status <> 'pending' OR h.expires_at <= now()))::text AS stale`,
        [bank.projectId],
      );
      if (due === '0' && stale === '0') break;
      if (Date.now() > until) throw new Error(`${due} due lots and ${stale} reservations of settled holds left 30 s after the run`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const expired = await expiredOf(t.db, bank.projectId);
    const released = await t.db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM transactions x JOIN lots l ON l.id = x.lot_id WHERE x.project_id = $1 AND x.created_at > l.expires_at`,
      [bank.projectId],
    );
    const [{ reserved }] = await t.db.query<{ reserved: string }>(`SELECT count(DISTINCT hold_id)::text AS reserved FROM hold_lots WHERE project_id = $1`, [bank.projectId]);
    console.log(
      `bank with verbs (expiring asset): ${run.operations} operations, ${run.transactions.length} transactions, ${run.holds.size} holds, ` +
        `${expired.length} expiries (${released[0].n} of points a hold released after their lot's expiry), ${reserved} pending holds still reserving lots, refused ${JSON.stringify(run.refused)}`,
    );

    expect(run.unexpected).toEqual([]);
    expect(run.badReads).toEqual([]);
    expect(expired.length).toBeGreaterThan(0);
    expect(await verbsViolations(t.db, bank, funding, run, { expiring: true })).toEqual([]);
    const all = [...funding, ...run.transactions].map((tx) => ({ ...tx, to: tx.to ?? '@mint' }));
    expect(await historyViolations(api, { bank, acknowledged: all, expired })).toEqual([]);
    expect(await lotRowViolations(t, bank.projectId)).toEqual([]);
  }, 180_000);
});

/**
 * The lot rows against everything else, in SQL: each lot's `held` is what pending holds reserve
 * in it (hold_lots), and those holds are pending and unexpired; a wallet's lots never hold more
 * than its balance nor reserve more than its held; nothing of a lot past its expiry is left
 * unless a pending hold reserves it; a lot never lost more to expiries than its amount; every
 * expiry is of a lot of its wallet, dated at or after the lot's expiry; a wallet's rows in the
 * asset are dated in posting order.
 */
async function lotRowViolations(t: TestApp, projectId: number): Promise<string[]> {
  const checks: [string, string][] = [
    ['lot held ≠ its reservations', `SELECT l.id FROM lots l LEFT JOIN (SELECT lot_id, sum(amount) AS amount FROM hold_lots GROUP BY lot_id) r ON r.lot_id = l.id WHERE l.project_id = $1 AND l.held <> coalesce(r.amount, 0)`],
    ['reservation of a settled or expired hold', `SELECT r.hold_id FROM hold_lots r JOIN holds h ON h.id = r.hold_id WHERE r.project_id = $1 AND (h.status <> 'pending' OR h.expires_at <= now())`],
    ['lots hold more than the balance', `SELECT b.wallet_id FROM balances b JOIN lots l ON l.wallet_id = b.wallet_id AND l.asset_id = b.asset_id WHERE b.project_id = $1 GROUP BY b.wallet_id, b.amount HAVING sum(l.remaining) > b.amount`],
    ['lots reserve more than held', `SELECT b.wallet_id FROM balances b JOIN lots l ON l.wallet_id = b.wallet_id AND l.asset_id = b.asset_id WHERE b.project_id = $1 GROUP BY b.wallet_id, b.held HAVING sum(l.held) > b.held`],
    ['a lot past its expiry keeps unreserved points', `SELECT id FROM lots WHERE project_id = $1 AND expires_at <= now() AND remaining > held`],
    ['a lot expired for more than its amount', `SELECT l.id FROM lots l JOIN transactions x ON x.lot_id = l.id WHERE l.project_id = $1 GROUP BY l.id, l.amount HAVING sum(x.amount) > l.amount`],
    ["an expiry of another wallet's lot, or before the lot expired", `SELECT x.id FROM transactions x JOIN lots l ON l.id = x.lot_id WHERE x.project_id = $1 AND (l.wallet_id <> x.from_wallet_id OR x.created_at < l.expires_at)`],
    [
      'a wallet row dated before the one posted before it',
      `SELECT id FROM (SELECT x.id, x.created_at, lag(x.created_at) OVER (PARTITION BY w.wallet_id ORDER BY x.seq) AS previous
                         FROM transactions x CROSS JOIN LATERAL (VALUES (x.from_wallet_id), (x.to_wallet_id)) w(wallet_id)
                        WHERE x.project_id = $1 AND w.wallet_id IS NOT NULL) d WHERE d.created_at < d.previous`,
    ],
  ];
  const problems: string[] = [];
  for (const [what, sql] of checks) {
    const rows = await t.db.query<Record<string, unknown>>(sql, [projectId]);
    if (rows.length > 0) problems.push(`${what}: ${rows.length} (${JSON.stringify(rows.slice(0, 3))})`);
  }
  return problems;
}
