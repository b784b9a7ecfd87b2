import { createTestDatabase } from '../support/database.js';
import { runBank } from './support/bank.js';
import { Api, issueKey, pool } from './support/http.js';
import { historyViolations, ledgerViolations } from './support/invariants.js';
import { provisionBank } from './support/provision.js';
import { PROCESS_ADMIN_TOKEN, startService, type ServiceProcess } from './support/service-process.js';
import { connectSql } from './support/sql.js';

/**
 * CONTRACT §9: instances are stateless. Two service processes share one PostgreSQL; the bank
 * workload, the daily call quota and idempotency keys must hold across them.
 */
describe('two instances, one database', () => {
  let databaseUrl: string;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let sql: Awaited<ReturnType<typeof connectSql>>;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    // Both start (and run migrations) at once: the migration lock makes them take turns.
    [a, b] = await Promise.all([startService({ DATABASE_URL: databaseUrl }), startService({ DATABASE_URL: databaseUrl })]);
    sql = await connectSql(databaseUrl);
  }, 60_000);

  afterAll(async () => {
    await sql?.close();
    const codes = await Promise.all([a?.stop(), b?.stop()]);
    expect(codes).toEqual([0, 0]); // graceful shutdown of both
  }, 60_000);

  it('runs the bank workload over both with every invariant intact', async () => {
    const key = await issueKey(a.url, PROCESS_ADMIN_TOKEN, 'bank2-owner', 'pro');
    const apiA = new Api(a.url, key);
    const apiB = apiA.at(b.url);
    const { bank, funding } = await provisionBank(apiA, { customers: 30, seedMinor: 10_000_000n, fundMinor: 20_000n });

    const run = await runBank({ targets: [apiA, apiB], bank, writers: 32, transfersPerWriter: 64, readers: 4, seed: 42, typicalMinor: 5_000n });
    console.log(
      `bank (2 instances): ${run.acknowledged.length} acknowledged, ${run.refused} refused, ${run.reads} reads, ` +
        `${run.transfersPerSecond} transfers/s over ${Math.round(run.elapsedMs)} ms`,
    );
    expect(run.unexpected).toEqual([]);
    expect(run.badReads).toEqual([]);
    expect(run.indeterminate).toEqual([]);
    expect(run.acknowledged.length + run.refused).toBe(32 * 64);
    expect(run.refused).toBeGreaterThan(0);

    const expected = { bank, acknowledged: [...funding, ...run.acknowledged] };
    expect(await ledgerViolations(sql, expected)).toEqual([]);
    const [{ n }] = await sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM transactions WHERE project_id = $1`, [bank.projectId]);
    expect(Number(n)).toBe(expected.acknowledged.length + bank.seeds.length);
    // Histories read through the other instance than the one that provisioned.
    expect(await historyViolations(apiB, expected)).toEqual([]);
  }, 120_000);

  it('holds one idempotency key across both instances: one posting, the rest replay or wait', async () => {
    const key = await issueKey(b.url, PROCESS_ADMIN_TOKEN, 'idem2-owner', 'pro');
    const apiA = new Api(a.url, key);
    const { bank } = await provisionBank(apiA, { customers: 1, seedMinor: 100_000n, fundMinor: 1_000n });
    const body = { amount: 3.21, currency: bank.currency, projectId: bank.projectId, from: bank.system.id, to: bank.customers[0].id };
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? apiA : apiA.at(b.url)).post('/transactions', body, { idempotencyKey: 'across-instances' })),
    );
    const originals = replies.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') !== 'true');
    expect(originals).toHaveLength(1);
    for (const r of replies) {
      if (r.status === 201) expect(r.body).toEqual(originals[0].body);
      else expect([r.status, r.body.code]).toEqual([409, 'idempotency_in_progress']);
    }
    const [{ n }] = await sql.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM transactions WHERE from_wallet_id = $1 AND to_wallet_id = $2 AND amount = 321`,
      [bank.system.id, bank.customers[0].id],
    );
    expect(n).toBe('1');
    // Different request, same key, other instance: 422.
    const reuse = await apiA.at(b.url).post('/transactions', { ...body, amount: 1 }, { idempotencyKey: 'across-instances' });
    expect([reuse.status, reuse.body.code]).toEqual([422, 'idempotency_key_reuse']);
  }, 60_000);

  it('holds the daily call quota across both instances (free plan, 1,000 calls a day)', async () => {
    const key = await issueKey(a.url, PROCESS_ADMIN_TOKEN, 'quota2-owner', 'free');
    const targets = [new Api(a.url, key), new Api(b.url, key)];
    const calls = 1_400;
    const statuses = await pool(calls, 16, (i) => targets[i % 2].get('/user/plan').then((r) => r.status));
    const admitted = statuses.filter((s) => s === 200).length;
    const limited = statuses.filter((s) => s === 429).length;
    expect(admitted + limited).toBe(calls);

    // Within 1,000 calls of the limit (the whole free plan) every call is admitted by one
    // conditional increment in PostgreSQL, so the limit is exact across instances: no overshoot.
    expect(admitted).toBe(1000);
    for (const api of targets) {
      const more = await Promise.all(Array.from({ length: 5 }, () => api.get('/user/plan')));
      for (const res of more) {
        expect(res.status).toBe(429);
        expect(res.body.code).toBe('rate_limited');
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    // Every admitted call is counted in PostgreSQL, exactly.
    await new Promise((r) => setTimeout(r, 300)); // three flush intervals
    const [{ calls: counted }] = await sql.query<{ calls: string }>(`SELECT calls::text FROM api_call_counts WHERE owner_id = 'quota2-owner'`);
    console.log(`call quota across 2 instances: ${admitted} admitted of ${calls} (limit 1000), counted ${counted}`);
    expect(Number(counted)).toBe(admitted);
  }, 60_000);
});
