import { expectStatus, fundedProject, transfer, UUID_RE } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { journaled } from '../domain/journal/journal-support.js';

/** GET /projects/{id}/journal and …/journal/verify (CONTRACT §22): shapes, pages, checks. */
let t: TestApp;
let key: string;
let otherKey: string;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.issueKey('journal-rest-owner', 'enterprise');
  otherKey = await t.issueKey('journal-rest-other', 'enterprise');
});
afterAll(() => t?.close());

const HEX64 = /^[0-9a-f]{64}$/;

describe('GET /projects/{id}/journal', () => {
  it('pages entries by seq: limit, after, nextAfter, hasMore', async () => {
    const f = await fundedProject(t, key, { customers: 2, systemBalance: '100' });
    for (let i = 1; i <= 4; i++) await transfer(t, f, f.system.id, f.customers[i % 2].id, i);
    await journaled(t);
    const first = await expectStatus(t.request('GET', `/projects/${f.projectId}/journal?limit=2`, { key }), 200);
    expect(first.pagination).toEqual({ limit: 2, after: 0, nextAfter: 2, hasMore: true });
    expect(first.entries).toEqual([
      { seq: 1, transactionId: expect.stringMatching(UUID_RE), hash: expect.stringMatching(HEX64), prevHash: '0'.repeat(64) },
      { seq: 2, transactionId: expect.stringMatching(UUID_RE), hash: expect.stringMatching(HEX64), prevHash: first.entries[0].hash },
    ]);
    const last = await expectStatus(t.request('GET', `/projects/${f.projectId}/journal?after=4`, { key }), 200);
    expect(last.pagination).toEqual({ limit: 20, after: 4, nextAfter: 5, hasMore: false });
    expect(last.entries.map((e: { seq: number }) => e.seq)).toEqual([5]);
    const beyond = await expectStatus(t.request('GET', `/projects/${f.projectId}/journal?after=9`, { key }), 200);
    expect(beyond).toEqual({ entries: [], pagination: { limit: 20, after: 9, nextAfter: 9, hasMore: false } });
  });

  it('answers a malformed or out-of-range after with 400 validation_error, never 500 (CONTRACT §21 clarification)', async () => {
    const f = await fundedProject(t, key, { customers: 1, systemBalance: '10' });
    for (const after of ['x', '-1', '1e3', '9007199254740992', '99999999999999999999', '']) {
      const res = await t.request('GET', `/projects/${f.projectId}/journal?after=${after}`, { key });
      expect({ after, status: res.status, code: res.body.code, field: res.body.details.field }).toEqual({ after, status: 400, code: 'validation_error', field: 'after' });
    }
  });

  it('has a transaction within a second of its commit', async () => {
    const f = await fundedProject(t, key, { customers: 1, systemBalance: '10' });
    await journaled(t);
    const posted = await transfer(t, f, f.system.id, f.customers[0].id, 1);
    const committed = Date.now();
    let found = false;
    while (!found && Date.now() - committed < 1_000) {
      const page = await expectStatus(t.request('GET', `/projects/${f.projectId}/journal?after=1`, { key }), 200);
      found = page.entries.some((e: { transactionId: string }) => e.transactionId === posted.transaction.id);
    }
    expect(found).toBe(true);
  });

  it('400 for a bad limit, after or unknown parameter; 404 for another owner’s or an unknown project', async () => {
    const f = await fundedProject(t, key, { customers: 1, systemBalance: '0' });
    for (const query of ['limit=0', 'limit=101', 'after=-1', 'after=x', 'page=2']) {
      const res = await t.request('GET', `/projects/${f.projectId}/journal?${query}`, { key });
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'validation_error' });
    }
    expect((await t.request('GET', `/projects/abc/journal`, { key })).status).toBe(400);
    for (const path of [`/projects/${f.projectId}/journal`, `/projects/${f.projectId}/journal/verify`, `/projects/2147483000/journal`, `/projects/2147483000/journal/verify`]) {
      const res = await t.request('GET', path, { key: path.includes('2147483000') ? key : otherKey });
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 404, code: 'not_found' });
    }
    expect((await t.request('GET', `/projects/${f.projectId}/journal`)).status).toBe(401);
  });
});

describe('GET /projects/{id}/journal/verify', () => {
  it('a project without transactions: ok, 0 entries, lastSeq 0, lastHash 64 zeros', async () => {
    const f = await fundedProject(t, key, { customers: 1, systemBalance: '0' });
    expect(await expectStatus(t.request('GET', `/projects/${f.projectId}/journal/verify`, { key }), 200)).toEqual({ ok: true, entries: 0, lastSeq: 0, lastHash: '0'.repeat(64) });
  });

  it('is documented in /openapi.json', async () => {
    const { body } = await t.request('GET', '/openapi.json');
    expect(Object.keys(body.paths['/projects/{id}/journal'])).toEqual(['get']);
    expect(Object.keys(body.paths['/projects/{id}/journal/verify'])).toEqual(['get']);
  });
});
