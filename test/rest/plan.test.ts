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

  it('answers the same plan over GraphQL', async () => {
    const key = await t.issueKey('gql-plan', 'starter');
    const res = await t.graphql(key, '{ plan { userId planCode apiCallsPerDay advancedAnalytics } }');
    expect(res.body).toEqual({ data: { plan: { userId: 'gql-plan', planCode: 'starter', apiCallsPerDay: 100000, advancedAnalytics: true } } });
  });
});
