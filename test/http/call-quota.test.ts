import { startTestApp, type TestApp } from '../support/test-app.js';

/** The HTTP pipeline authenticates and counts every call (CONTRACT §2) before any route runs. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('daily call quota', () => {
  it('costs no SQL statement once the key is cached (auth and call counting included)', async () => {
    const key = await t.issueKey('cached-plan', 'pro');
    await t.request('GET', '/user/plan', { key });
    const res = await t.request('GET', '/user/plan', { key });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-sql-statements')).toBe('0');
  });

  it('answers the 1001st call of a free owner with 429 and Retry-After; another owner is unaffected', async () => {
    const key = await t.issueKey('busy-free', 'free');
    const other = await t.issueKey('quiet-free', 'free');
    const statuses: number[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const results = await Promise.all(Array.from({ length: 100 }, () => t.request('GET', '/user/plan', { key })));
      statuses.push(...results.map((r) => r.status));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(1000);
    const over = await t.request('GET', '/user/plan', { key });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('rate_limited');
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86400);
    expect((await t.request('GET', '/user/plan', { key: other })).status).toBe(200);
  });

  it('records the count in PostgreSQL', async () => {
    const key = await t.issueKey('counted', 'free');
    for (let i = 0; i < 5; i++) await t.request('GET', '/user/plan', { key });
    await t.app.services.calls.flush();
    const [row] = await t.db.query<{ calls: string }>(`SELECT calls FROM api_call_counts WHERE owner_id = 'counted'`);
    expect(Number(row.calls)).toBe(5);
  });
});
