import { startTestApp, type TestApp } from '../support/test-app.js';
import { runBank } from './support/bank.js';
import { Api } from './support/http.js';
import { historyViolations, ledgerViolations } from './support/invariants.js';
import { provisionBank } from './support/provision.js';

/**
 * The Jepsen bank workload against the in-process service over real HTTP: 31 wallets, 32
 * writers posting 2,048 random transfers (about one in six asks for more than a customer
 * usually holds), 4 readers. Then every invariant of CONTRACT §4, in SQL and over the API.
 */
describe('bank workload (one instance)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('conserves money, acknowledges exactly what it posts, and keeps every history consistent', async () => {
    const key = await t.issueKey('bank-owner', 'pro');
    const api = new Api(t.baseUrl, key);
    const { bank, funding } = await provisionBank(api, { customers: 30, seedMinor: 10_000_000n, fundMinor: 20_000n });

    const run = await runBank({ targets: [api], bank, writers: 32, transfersPerWriter: 64, readers: 4, seed: 20261121, typicalMinor: 5_000n });
    console.log(
      `bank (1 instance): ${run.acknowledged.length} acknowledged, ${run.refused} refused (insufficient_funds), ` +
        `${run.reads} reads, ${run.transfersPerSecond} transfers/s over ${Math.round(run.elapsedMs)} ms`,
    );

    expect(run.unexpected).toEqual([]);
    expect(run.badReads).toEqual([]);
    expect(run.indeterminate).toEqual([]);
    expect(run.acknowledged.length + run.refused).toBe(32 * 64);
    expect(run.refused).toBeGreaterThan(0);
    expect(run.acknowledged.length).toBeGreaterThan(1000);

    const expected = { bank, acknowledged: [...funding, ...run.acknowledged] };
    expect(await ledgerViolations(t.db, expected)).toEqual([]);
    const [{ count }] = await t.db.query<{ count: string }>(`SELECT count(*)::text AS count FROM transactions WHERE project_id = $1`, [bank.projectId]);
    expect(Number(count)).toBe(expected.acknowledged.length + bank.seeds.length);
    expect(await historyViolations(api, expected)).toEqual([]);
  });
});
