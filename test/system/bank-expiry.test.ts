import { startTestApp, type TestApp } from '../support/test-app.js';
import { runBank } from './support/bank.js';
import { Api } from './support/http.js';
import { expiredOf, historyViolations, ledgerViolations } from './support/invariants.js';
import { lotViolations } from './support/lots-oracle.js';
import { provisionBank } from './support/provision.js';

const LIFETIMES = [1, 2, 3];

/**
 * The bank workload on an asset whose points expire (CONTRACT §15) after 1–3 s, the lifetime
 * changing every 300 ms while 16 writers run for 5 s, so lots are created, consumed and expired
 * (by postings and by a 200 ms sweeper) all through the run. Customers start with funds without
 * a lot (funded before the asset expired). Then: conservation as §15 generalises it
 * (seeded − expired = the sum of balances), every §4 invariant with expiries in the histories,
 * and the lot model (support/lots-oracle.ts) replayed over everything that was posted.
 */
describe('bank workload on an expiring asset', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ lotSweep: { intervalMs: 200, batchSize: 100 } });
  });
  afterAll(() => t.close());

  it('conserves seeded − expired, keeps every history and every lot exact while lots expire mid-run', async () => {
    const key = await t.issueKey('bank-expiry-owner', 'pro');
    const api = new Api(t.baseUrl, key);
    const { bank, funding } = await provisionBank(api, { customers: 20, seedMinor: 10_000_000n, fundMinor: 20_000n, name: 'expiring bank' });
    const assetId: string = (await api.get(`/assets?projectId=${bank.projectId}`)).body.assets[0].id;
    const setLifetime = async (seconds: number) => {
      const res = await api.put(`/assets/${assetId}`, { expiresAfterSeconds: seconds });
      if (res.status !== 200) throw new Error(`PUT /assets: ${res.status} ${JSON.stringify(res.body)}`);
    };
    await setLifetime(LIFETIMES[0]);

    let writing = true;
    const cycler = (async () => {
      for (let i = 1; writing; i++) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        await setLifetime(LIFETIMES[i % LIFETIMES.length]);
      }
    })();
    // In any one snapshot, no customer's lots hold more than its balance (the rest: funds without a lot).
    const overdrawn: string[] = [];
    let snapshots = 0;
    let expiriesSeen = 0;
    const watcher = (async () => {
      while (writing) {
        const rows = await t.db.query<{ wallet_id: string; balance: string; lots: string }>(
          `SELECT b.wallet_id, b.amount::text AS balance, coalesce(sum(l.remaining), 0)::text AS lots
             FROM balances b LEFT JOIN lots l ON l.wallet_id = b.wallet_id AND l.asset_id = b.asset_id
            WHERE b.project_id = $1 GROUP BY b.wallet_id, b.amount`,
          [bank.projectId],
        );
        snapshots += 1;
        const [{ n }] = await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM transactions WHERE project_id = $1 AND kind = 'expiry'`, [bank.projectId]);
        expiriesSeen = Number(n);
        for (const r of rows) if (BigInt(r.lots) > BigInt(r.balance)) overdrawn.push(`${r.wallet_id}: lots ${r.lots} > balance ${r.balance}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    // At least 5 s, and on until some lots have expired mid-run and more than 100 transfers are
    // acknowledged (the checks below need both): the faster the machine, the sooner a wallet's lots
    // are spent (earliest first) and the fewer live long enough; the slower (a loaded CI box: 14
    // transfers/s once), the longer 100 take. At most 20 s more.
    const deadline = Date.now() + 5_000;
    let acknowledged = 0;
    const stop = () => Date.now() > deadline && ((expiriesSeen >= 3 && acknowledged > 100) || Date.now() > deadline + 20_000);
    const run = await runBank({ targets: [api], bank, writers: 16, transfersPerWriter: 1_000_000, readers: 2, seed: 151, typicalMinor: 2_000n, stop, onAcknowledged: (count) => (acknowledged = count) });
    const runEnded = new Date();
    writing = false;
    await Promise.all([cycler, watcher]);

    // Every lot's expires_at is at most 3 s after the last credit; the sweeper then posts what no posting did.
    for (const until = Date.now() + 20_000; ; ) {
      const [{ live }] = await t.db.query<{ live: string }>(`SELECT count(*)::text AS live FROM lots WHERE project_id = $1 AND remaining > held`, [bank.projectId]);
      if (live === '0') break;
      if (Date.now() > until) throw new Error(`${live} lots still unexpired 20 s after the run`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const expired = await expiredOf(t.db, bank.projectId);
    const lots = await lotViolations(t.db, { projectId: bank.projectId, customers: bank.customers.map((c) => c.id), lifetimesSeconds: LIFETIMES });
    const [{ mid }] = await t.db.query<{ mid: string }>(`SELECT count(*)::text AS mid FROM transactions WHERE project_id = $1 AND kind = 'expiry' AND created_at < $2`, [bank.projectId, runEnded]);
    console.log(
      `bank (expiring asset): ${run.acknowledged.length} acknowledged, ${run.refused} refused, ${run.transfersPerSecond} transfers/s; ` +
        `${lots.summary.lots} lots, ${lots.summary.expiries} expiries (${mid} during the run), ${snapshots} lot snapshots`,
    );

    expect(run.unexpected).toEqual([]);
    expect(run.badReads).toEqual([]);
    expect(run.indeterminate).toEqual([]);
    expect(run.acknowledged.length).toBeGreaterThan(100);
    expect(Number(mid)).toBeGreaterThan(0);
    expect(overdrawn).toEqual([]);
    expect(lots.problems).toEqual([]);
    expect(lots.summary.dueUnexpired).toBe(0);
    const expected = { bank, acknowledged: [...funding, ...run.acknowledged], expired };
    expect(await ledgerViolations(t.db, expected)).toEqual([]);
    expect(await historyViolations(api, expected)).toEqual([]);
    // and nothing is listed any more
    for (const customer of bank.customers) expect((await api.get(`/wallets/${customer.id}/lots`)).body).toEqual({ lots: [] });
  }, 120_000);
});
