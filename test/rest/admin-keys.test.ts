import { UNKNOWN_UUID, UUID_RE, ISO_MS } from '../support/fixtures.js';
import { hashKey } from '../../src/domain/auth/api-key.service.js';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../support/test-app.js';

/** Key management (CONTRACT §17 and its clarifications): issue with an id, list, revoke. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const admin = { admin_token: ADMIN_TOKEN };
const issue = async (owner: string, plan_code = 'pro') => {
  const res = await t.request('POST', '/admin/api-keys', { headers: admin, body: { owner, plan_code } });
  expect(res.status).toBe(201);
  return res.body as { api_key: string; id: string; owner: string; plan_code: string };
};
const list = (query: string, headers: Record<string, string> = admin) => t.request('GET', `/admin/api-keys?${query}`, { headers });
const revoke = (id: string, headers: Record<string, string> = admin) => t.request('DELETE', `/admin/api-keys/${id}`, { headers });

describe('POST /admin/api-keys', () => {
  it("answers the key's id beside the key", async () => {
    const issued = await issue('id-owner', 'starter');
    expect(issued).toEqual({ api_key: expect.stringMatching(/^lk_/), id: expect.stringMatching(UUID_RE), owner: 'id-owner', plan_code: 'starter' });
  });
});

describe('GET /admin/api-keys?owner=', () => {
  it("lists the owner's keys oldest first as {id, owner, plan_code, prefix, created_at}, never the key or its digest", async () => {
    const first = await issue('lister', 'free');
    const second = await issue('lister', 'starter');
    await issue('someone-else');
    const res = await list('owner=lister');
    expect(res.status).toBe(200);
    expect(res.body.keys).toEqual([
      { id: first.id, owner: 'lister', plan_code: 'starter', prefix: first.api_key.slice(0, 8), created_at: expect.stringMatching(ISO_MS) },
      { id: second.id, owner: 'lister', plan_code: 'starter', prefix: second.api_key.slice(0, 8), created_at: expect.stringMatching(ISO_MS) },
    ]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1 });
    for (const key of [first.api_key, second.api_key]) {
      expect(res.text).not.toContain(key);
      expect(res.text).not.toContain(hashKey(key));
    }
  });

  it('pages like every list (CONTRACT §7) and answers an owner without keys with an empty list', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await issue('pager')).id);
    const page2 = await list('owner=pager&page=2&limit=2');
    expect(page2.body.keys.map((k: { id: string }) => k.id)).toEqual([ids[2]]);
    expect(page2.body.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    const none = await list('owner=nobody-at-all');
    expect([none.status, none.body]).toEqual([200, { keys: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } }]);
  });

  it('refuses a missing owner, bad paging and unknown parameters with 400', async () => {
    for (const query of ['', 'owner=', 'owner=x&limit=0', 'owner=x&page=a', 'owner=x&key=1']) {
      const res = await list(query);
      expect([query, res.status, res.body.code]).toEqual([query, 400, 'validation_error']);
    }
  });
});

describe('DELETE /admin/api-keys/{id}', () => {
  it("revokes one key: it answers 401 and is no longer listed; the owner's other key keeps working", async () => {
    const kept = await issue('revoker');
    const doomed = await issue('revoker');
    expect((await t.request('GET', '/user/plan', { key: doomed.api_key })).status).toBe(200); // cached now
    const res = await revoke(doomed.id);
    expect([res.status, res.body]).toEqual([200, { id: doomed.id, revoked: true }]);
    const after = await t.request('GET', '/user/plan', { key: doomed.api_key });
    expect([after.status, after.body.code]).toEqual([401, 'unauthorized']);
    expect((await t.request('GET', '/user/plan', { key: kept.api_key })).status).toBe(200);
    expect((await list('owner=revoker')).body.keys.map((k: { id: string }) => k.id)).toEqual([kept.id]);
  });

  it('answers 404 to an unknown or already revoked id, 400 to a malformed one', async () => {
    const once = await issue('twice');
    expect((await revoke(once.id)).status).toBe(200);
    const again = await revoke(once.id);
    expect([again.status, again.body.code]).toEqual([404, 'not_found']);
    expect((await revoke(UNKNOWN_UUID)).status).toBe(404);
    const malformed = await revoke('not-a-uuid');
    expect([malformed.status, malformed.body.code, malformed.body.details.field]).toEqual([400, 'validation_error', 'id']);
    expect((await t.request('GET', '/user/plan', { key: once.api_key })).status).toBe(401);
  });
});

describe('admin authentication', () => {
  it('answers 401 to a wrong or missing admin_token on every key route, before validating anything', async () => {
    const { id, api_key } = await issue('guarded');
    for (const headers of [{ admin_token: 'wrong-token' }, {} as Record<string, string>]) {
      for (const res of [await list('owner=guarded', headers), await list('', headers), await revoke(id, headers), await revoke('not-a-uuid', headers)]) {
        expect([res.status, res.body.code]).toEqual([401, 'unauthorized']);
      }
    }
    expect((await t.request('GET', '/user/plan', { key: api_key })).status).toBe(200); // not revoked
  });
});
