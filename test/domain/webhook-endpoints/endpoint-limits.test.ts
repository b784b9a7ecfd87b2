import type { Database } from '../../../src/db/database.js';
import type { Resolver } from '../../../src/domain/webhook-endpoints/url-guard.js';
import { DEFAULTS } from '../../../src/config.js';
import { expectStatus } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/** Names this resolver knows; `hangs.example` never resolves; every look-up is noted. */
const looked: string[] = [];
const resolver: Resolver = (host) => {
  looked.push(host);
  if (host === 'hangs.example') return new Promise(() => undefined);
  if (host === 'internal.example') return Promise.resolve([{ address: '10.11.12.13', family: 4 }]);
  if (host === 'public.example') return Promise.resolve([{ address: '93.184.215.14', family: 4 }]);
  return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
};

let t: TestApp;
let key: string;
let stranger: string;
beforeAll(async () => {
  t = await startTestApp({ webhooks: { ...DEFAULTS.webhooks, resolver } }); // private targets refused
  key = await t.issueKey('endpoint-limits', 'enterprise');
  stranger = await t.issueKey('endpoint-limits-stranger', 'enterprise');
});
afterAll(() => t.close());

const newProject = async (as = key): Promise<number> => (await expectStatus(t.request('POST', '/projects', { key: as, body: { name: 'Hooks' } }), 201)).id;
const create = (projectId: number, url = 'https://93.184.215.14/hooks', as = key) => t.request('POST', '/webhook-endpoints', { key: as, body: { projectId, url } });

/** Resolves once `n` sessions of this database wait for a lock (the test holds it). */
async function lockWaiters(db: Database, n: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [{ waiting }] = await db.query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (waiting >= n) return;
    if (Date.now() > deadline) {
      const rows = await db.query(`SELECT state, wait_event_type, wait_event, left(query, 80) AS q FROM pg_stat_activity WHERE datname = current_database()`);
      throw new Error(`${waiting} of ${n} sessions waiting for the lock: ${JSON.stringify(rows)}`);
    }
  }
}

describe('at most 20 webhook endpoints per project (CONTRACT §18)', () => {
  it('refuses the 21st with 403 quota_exceeded, writes nothing, and takes one again after a delete', async () => {
    const projectId = await newProject();
    const created = [];
    for (let i = 0; i < 20; i++) created.push(await expectStatus(create(projectId), 201));
    const refused = await create(projectId);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: 'quota_exceeded', message: expect.any(String), details: { quota: 'webhook_endpoints', limit: 20 } });
    const [{ n }] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE project_id = $1`, [projectId]);
    expect(n).toBe(20);
    // another project of the same owner has its own 20
    await expectStatus(create(await newProject()), 201);
    await expectStatus(t.request('DELETE', `/webhook-endpoints/${created[0].id}`, { key }), 200);
    await expectStatus(create(projectId), 201);
  });

  it('counts under a lock: two creations at 19 that meet never both succeed', async () => {
    const projectId = await newProject();
    for (let i = 0; i < 19; i++) await expectStatus(create(projectId), 201);
    // the test holds the fan-out's lock, which every creation takes before it inserts: both are
    // under way together, and an unlocked count would let both see 19
    const { both } = await t.db.transaction(async (client) => {
      await client.query(`SELECT 1 FROM webhook_fanout FOR UPDATE`);
      const meeting = { both: Promise.all([create(projectId), create(projectId)]) };
      await lockWaiters(t.db, 2);
      return meeting; // wrapped: the lock goes at COMMIT, before the creations can finish
    });
    const released = await both;
    expect(released.map((r) => r.status).sort()).toEqual([201, 403]);
    expect(released.find((r) => r.status === 403)!.body).toMatchObject({ code: 'quota_exceeded', details: { quota: 'webhook_endpoints', limit: 20 } });
    const [{ n }] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE project_id = $1`, [projectId]);
    expect(n).toBe(20);
  });
});

describe('creating an endpoint: ownership before the URL, refusals without addresses (CONTRACT §18)', () => {
  it.each([
    ['an unknown project', () => Promise.resolve(987_654)],
    ["another owner's project", () => newProject(stranger)],
  ])('answers 404 for %s before looking the URL up (a host that would hang)', async (_what, project) => {
    const projectId = await project();
    looked.length = 0;
    const res = await create(projectId, 'https://hangs.example/hooks');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found', details: { resource: 'project', id: projectId } });
    expect(looked).toEqual([]);
  }, 10_000);

  it('names the rule a refused URL broke, never the address its name resolved to', async () => {
    const res = await create(await newProject(), 'https://internal.example/hooks');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', details: { field: 'url' } });
    expect(res.body.message).toContain('resolves to a private address');
    expect(res.body.message).toContain('LEDGER_WEBHOOK_ALLOW_PRIVATE=true');
    expect(res.text).not.toContain('10.11.12.13');
  });

  it('looks the URL up for the owner (a public name is accepted)', async () => {
    looked.length = 0;
    await expectStatus(create(await newProject(), 'https://public.example/hooks'), 201);
    expect(looked).toEqual(['public.example']);
  });
});
