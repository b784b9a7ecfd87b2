import { startTestApp, type TestApp } from '../support/test-app.js';
import { Api } from './support/http.js';
import { historyViolations } from './support/invariants.js';
import { minorOf } from './support/money.js';
import { provisionBank } from './support/provision.js';
import { runVerbsBank } from './support/verbs-bank.js';
import { verbsViolations } from './support/verbs-invariants.js';

/**
 * The bank workload with every verb: 24 writers × 40 operations mixing transfers, holds (a third
 * expiring after 1–2 s), captures (some partial, several racing for one hold), voids, reversals
 * (and returns of the seed to @mint) and batches, while 4 readers check every balance, held and
 * available they see. Then the invariants in SQL and over the API.
 */
describe('bank workload with holds, reversals and batches (one instance)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('conserves money, settles each hold at most once, and keeps every history consistent', async () => {
    const key = await t.issueKey('bank-verbs-owner', 'pro');
    const api = new Api(t.baseUrl, key);
    const { bank, funding } = await provisionBank(api, { customers: 20, seedMinor: 5_000_000n, fundMinor: 20_000n, name: 'verbs bank' });
    const run = await runVerbsBank(api, bank, { writers: 24, opsPerWriter: 40, readers: 4, seed: 20261123, typicalMinor: 5_000n });
    console.log(`bank with verbs: ${run.operations} operations, ${run.transactions.length} transactions, ${run.holds.size} holds, refused ${JSON.stringify(run.refused)}, ${run.reads} reads`);

    expect(run.unexpected).toEqual([]);
    expect(run.badReads).toEqual([]);
    expect(run.operations).toBe(24 * 40 - 0);
    const kinds = new Set(run.transactions.map((tx) => tx.kind));
    expect([...kinds].sort()).toEqual(['capture', 'reversal', 'transfer']);
    expect([...run.holds.values()].some((h) => h.voided)).toBe(true);
    expect([...run.holds.values()].some((h) => h.captured !== null && h.captured < h.amount)).toBe(true);

    // let every short-lived hold pass its expiry, then check: nothing waits for a job
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await verbsViolations(t.db, bank, funding, run)).toEqual([]);
    const all = [...funding, ...run.transactions].map((tx) => ({ ...tx, to: tx.to ?? '@mint' }));
    expect(await historyViolations(api, { bank, acknowledged: all })).toEqual([]);

    // over the API: held is exactly the pending unexpired holds, available = balance − held ≥ 0
    const [{ n: expiredPending }] = await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM holds WHERE project_id = $1 AND status = 'pending' AND expires_at <= now()`, [bank.projectId]);
    const listed = await api.get(`/holds?projectId=${bank.projectId}&status=expired&limit=100`);
    expect(listed.body.pagination.total).toBeGreaterThanOrEqual(Number(expiredPending));
    for (const wallet of [bank.system, ...bank.customers]) {
      const res = await api.get(`/wallets/${wallet.id}`);
      const [b] = res.body.balance;
      const [{ held }] = await t.db.query<{ held: string }>(
        `SELECT coalesce(sum(amount), 0)::text AS held FROM holds WHERE from_wallet_id = $1 AND status = 'pending' AND (expires_at IS NULL OR expires_at > now())`,
        [wallet.id],
      );
      expect(minorOf(b.held, bank.fractions)).toBe(BigInt(held));
      expect(minorOf(b.available, bank.fractions)).toBe(minorOf(b.balance, bank.fractions) - BigInt(held));
      expect(b.available).toBeGreaterThanOrEqual(0);
    }
  });
});
