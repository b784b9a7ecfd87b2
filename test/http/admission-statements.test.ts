import { startTestApp, type TestApp } from '../support/test-app.js';
import { statementsOf } from '../support/statements.js';

/**
 * `x-sql-statements` counts every statement a request cost; `x-sql-admission-statements` the part
 * its admission cost (the key looked up, the call counted: src/db/statement-counter.ts). Those
 * caches refresh on whichever request finds them stale, so the rest is what a request costs for
 * what it asked, whatever the clock. Forced here: a key issued to the owner drops the owner's
 * cached lookups (CONTRACT §17), so the next request looks its key up again.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const counts = (res: { status: number; headers: Headers }) => ({
  status: res.status,
  total: Number(res.headers.get('x-sql-statements')),
  admission: Number(res.headers.get('x-sql-admission-statements')),
  own: statementsOf(res),
});

describe('the statements of a request’s admission, counted apart', () => {
  it('a key looked up again costs one admission statement; the request costs the same beyond it', async () => {
    const key = await t.issueKey('admission-owner', 'pro');
    expect((await t.request('POST', '/projects', { key, body: { name: 'admitted' } })).status).toBe(201);
    await t.request('GET', '/projects', { key }); // the key and the call quota's view cached
    const cached = counts(await t.request('GET', '/projects', { key }));
    await t.issueKey('admission-owner', 'pro'); // drops the owner's cached lookups
    const looked = counts(await t.request('GET', '/projects', { key }));
    expect(cached).toEqual({ status: 200, total: cached.own, admission: 0, own: expect.any(Number) });
    expect(cached.own).toBeGreaterThan(0);
    expect(looked).toEqual({ status: 200, total: cached.own + 1, admission: 1, own: cached.own });
  });

  it('a wrong key costs its lookup as admission and nothing else', async () => {
    const res = counts(await t.request('GET', '/projects', { key: 'lk_not-a-key' }));
    expect(res).toEqual({ status: 401, total: 1, admission: 1, own: 0 });
  });
});
