import { startTestApp, ADMIN_TOKEN, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('POST /admin/api-keys', () => {
  it('issues a key that authenticates its owner', async () => {
    const res = await t.request('POST', '/admin/api-keys', { headers: { admin_token: ADMIN_TOKEN }, body: { owner: 'alice', plan_code: 'starter' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ api_key: expect.any(String), id: expect.any(String), owner: 'alice', plan_code: 'starter' });
    const plan = await t.request('GET', '/user/plan', { key: res.body.api_key });
    expect(plan.status).toBe(200);
    expect(plan.body.user_id).toBe('alice');
  });

  it('stores keys hashed, never in clear', async () => {
    const key = await t.issueKey('hashed-owner');
    const rows = await t.db.query<{ key_hash: string }>(`SELECT key_hash FROM api_keys WHERE owner_id = 'hashed-owner'`);
    expect(rows).toHaveLength(1);
    expect(rows[0].key_hash).not.toContain(key);
    expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers 401 to a wrong admin_token and to none', async () => {
    for (const headers of [{ admin_token: 'wrong-token' }, {} as Record<string, string>]) {
      const res = await t.request('POST', '/admin/api-keys', { headers, body: { owner: 'x', plan_code: 'pro' } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'unauthorized', message: expect.any(String), details: {} });
    }
  });

  it('refuses an unknown plan_code and unknown fields with 400', async () => {
    const bad = await t.request('POST', '/admin/api-keys', { headers: { admin_token: ADMIN_TOKEN }, body: { owner: 'x', plan_code: 'gold' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_error');
    expect(bad.body.details.field).toBe('plan_code');
    const extra = await t.request('POST', '/admin/api-keys', { headers: { admin_token: ADMIN_TOKEN }, body: { owner: 'x', plan_code: 'pro', admin: true } });
    expect(extra.status).toBe(400);
    expect(extra.body.details.field).toBe('admin');
  });

  it('moves an existing owner to the plan of its newest key', async () => {
    const first = await t.issueKey('mover', 'free');
    await t.issueKey('mover', 'enterprise');
    const plan = await t.request('GET', '/user/plan', { key: first });
    expect(plan.body.plan_code).toBe('enterprise');
  });
});

describe('api_key authentication', () => {
  it.each([
    ['missing', undefined],
    ['unknown', 'lk_not-a-real-key'],
    ['empty', ''],
  ])('answers 401 unauthorized to a %s key', async (_name, key) => {
    const res = await t.request('GET', '/user/plan', { key });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
    expect(res.body.details).toEqual({});
  });

  it('guards /graphql as well, answering a GraphQL response with extensions.code unauthorized (CONTRACT §18)', async () => {
    for (const key of [undefined, 'lk_not-a-real-key']) {
      const res = await t.request('POST', '/graphql', { key, body: { query: '{ plan { planCode } }' } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ errors: [{ message: expect.stringMatching(/api_key/), extensions: { code: 'unauthorized', details: {} } }] });
    }
    const get = await t.request('GET', `/graphql?query=${encodeURIComponent('{ plan { planCode } }')}`, { key: 'lk_not-a-real-key' });
    expect([get.status, get.body.errors[0].extensions.code]).toEqual([401, 'unauthorized']);
  });

  it('checks authentication before the route exists', async () => {
    expect((await t.request('GET', '/no-such-route')).status).toBe(401);
  });
});
