import pg from 'pg';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * CONTRACT §17: a plan change and a key revocation take effect on every instance within 1 s.
 * Two instances (A and B) serve one database; each caches key lookups. A change made on A must
 * reach B's cache through the database (LISTEN/NOTIFY), well before the cache's 5 s TTL.
 */
let a: TestApp;
let b: TestApp;
let sql: pg.Client;
beforeAll(async () => {
  a = await startTestApp();
  b = await startTestApp({ databaseUrl: a.databaseUrl });
  sql = new pg.Client({ connectionString: a.databaseUrl });
  await sql.connect();
});
afterAll(async () => {
  await sql.end();
  await b.close();
  await a.close();
});

const WITHIN_MS = 1_000;

/**
 * When `t` hears of a change of `owner`'s keys (`count` of them), on the test's clock: the revoking
 * instance hears of its own as soon as PostgreSQL answers the committed statement, the other
 * through LISTEN/NOTIFY, when it drops its cached lookups. The contract's second runs from the
 * commit, so it is measured between the two. Polling the other instance over HTTP until it
 * refused measured each poll's round trip as well, which the contract does not bound: at load 22
 * one poll took 1.8 s and the test read 2.8 s; the drop itself came 0-20 ms after the commit at
 * load 9 (bench/results/2026-12-07-flakes.txt).
 */
function heard(t: TestApp, owner: string, count = 1): Promise<number> {
  return new Promise((resolve) => {
    let left = count;
    const stop = t.app.services.apiKeys.onOwnerChange((changed) => {
      if (changed !== owner || --left > 0) return;
      stop();
      resolve(performance.now());
    });
  });
}

const planOn = async (t: TestApp, key: string): Promise<string | number> => {
  const res = await t.request('GET', '/user/plan', { key });
  return res.status === 200 ? res.body.plan_code : res.status;
};

describe('key cache coherence across instances', () => {
  it('a plan change made on A is seen by B within 1 s', async () => {
    const issued = heard(b, 'coherent-plan'); // B hears of the issue too: no older change is on its way to B after this
    const key = await a.issueKey('coherent-plan', 'free');
    await issued;
    expect(await planOn(b, key)).toBe('free'); // B caches the lookup
    const [onA, onB] = [heard(a, 'coherent-plan'), heard(b, 'coherent-plan')];
    await a.issueKey('coherent-plan', 'enterprise');
    const took = (await onB) - (await onA);
    console.log(`plan change heard by the other instance ${took.toFixed(1)} ms after the changing one`);
    expect(took).toBeLessThan(WITHIN_MS);
    expect(await planOn(b, key)).toBe('enterprise');
  });

  it("a key revoked on A answers 401 on B within 1 s; the owner's other key keeps working there", async () => {
    const issue = (owner: string) => a.request('POST', '/admin/api-keys', { headers: { admin_token: ADMIN_TOKEN }, body: { owner, plan_code: 'pro' } });
    const issued = heard(b, 'coherent-revoke', 2);
    const kept = (await issue('coherent-revoke')).body;
    const doomed = (await issue('coherent-revoke')).body;
    await issued;
    expect([await planOn(b, kept.api_key), await planOn(b, doomed.api_key)]).toEqual(['pro', 'pro']);
    const [onA, onB] = [heard(a, 'coherent-revoke'), heard(b, 'coherent-revoke')];
    expect((await a.request('DELETE', `/admin/api-keys/${doomed.id}`, { headers: { admin_token: ADMIN_TOKEN } })).status).toBe(200);
    const took = (await onB) - (await onA);
    console.log(`revocation heard by the other instance ${took.toFixed(1)} ms after the revoking one`);
    expect(took).toBeLessThan(WITHIN_MS);
    expect(await planOn(b, doomed.api_key)).toBe(401);
    expect(await planOn(b, kept.api_key)).toBe('pro');
  });

  it('B flushes its cache when its listener reconnects, so a change missed meanwhile is seen at once', async () => {
    // The change must commit while B listens to nothing: B's new listening session must start after
    // the commit (after `committedBy`). The reconnection waits 100 ms, so this nearly always holds; a run where B was quicker
    // proves nothing, and is tried again with another owner.
    for (let attempt = 1; ; attempt++) {
      const owner = `coherent-reconnect-${attempt}`;
      const key = await a.issueKey(owner, 'free');
      expect(await planOn(b, key)).toBe('free');
      const reconnected = new Promise<void>((resolve) => {
        const stop = b.app.services.notifications.onReconnect(() => {
          stop();
          resolve();
        });
      });
      await sql.query('SELECT pg_terminate_backend($1)', [b.app.services.notifications.backendPid()]);
      await a.app.services.apiKeys.issue(owner, 'starter');
      const committedBy = (await sql.query<{ at: string }>('SELECT clock_timestamp()::text AS at')).rows[0].at;
      await reconnected;
      const { rows } = await sql.query<{ missed: boolean }>(
        `SELECT backend_start > $2::timestamptz AS missed FROM pg_stat_activity WHERE pid = $1`,
        [b.app.services.notifications.backendPid(), committedBy],
      );
      const missed = rows[0]?.missed === true;
      if (!missed && attempt < 5) continue;
      expect(missed).toBe(true);
      expect(await planOn(b, key)).toBe('starter');
      return;
    }
  });
});
