import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const PLANS = {
  free: [1, 1, 100, 2, 1000, false, false, false],
  starter: [3, 3, 10000, 10, 100000, true, false, false],
  pro: [10, 10, 1000000, 50, 10000000, true, true, false],
  enterprise: [1000, 100, 100000000, 1000, 1000000000, true, true, true],
} as const;

describe('GET /user/plan', () => {
  it.each(Object.entries(PLANS))('reports the %s plan from the plan table', async (code, values) => {
    const key = await t.issueKey(`owner-${code}`, code);
    const res = await t.request('GET', '/user/plan', { key });
    expect(res.status).toBe(200);
    const [projects, assets, customer, system, calls, analytics, branding, support] = values;
    expect(res.body).toEqual({
      user_id: `owner-${code}`,
      plan_code: code,
      subscription_code: expect.stringMatching(/^SUB_/),
      subscription_status: 'active',
      projects,
      assets_per_project: assets,
      customer_wallets: customer,
      system_wallets: system,
      api_calls_per_day: calls,
      advanced_analytics: analytics,
      custom_branding: branding,
      priority_support: support,
    });
  });

  it('keeps the subscription code stable per owner', async () => {
    const a = await t.issueKey('stable');
    const b = await t.issueKey('stable');
    const first = await t.request('GET', '/user/plan', { key: a });
    const second = await t.request('GET', '/user/plan', { key: b });
    expect(first.body.subscription_code).toBe(second.body.subscription_code);
  });

  it('costs no SQL statement once the key is cached (auth and call counting included)', async () => {
    const key = await t.issueKey('cached-plan', 'pro');
    await t.request('GET', '/user/plan', { key });
    const res = await t.request('GET', '/user/plan', { key });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-sql-statements')).toBe('0');
  });

  it('answers the same plan over GraphQL', async () => {
    const key = await t.issueKey('gql-plan', 'starter');
    const res = await t.graphql(key, '{ plan { userId planCode apiCallsPerDay advancedAnalytics } }');
    expect(res.body).toEqual({ data: { plan: { userId: 'gql-plan', planCode: 'starter', apiCallsPerDay: 100000, advancedAnalytics: true } } });
  });
});

describe('daily call quota', () => {
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
