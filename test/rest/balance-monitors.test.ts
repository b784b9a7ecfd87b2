import { expectStatus, fundedProject, ISO_MS, UNKNOWN_UUID, type FundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** CONTRACT §20: POST/GET/DELETE /balance-monitors, every refusal with its code. */
let t: TestApp;
let key: string;
let p: FundedProject;

beforeAll(async () => {
  t = await startTestApp();
  key = await t.issueKey('monitors-rest', 'pro');
  p = await fundedProject(t, key, { customers: 2, fractions: 2 });
});
afterAll(() => t.close());

const create = (body: Record<string, unknown>, as = key) => t.request('POST', '/balance-monitors', { key: as, body: { projectId: p.projectId, currency: p.symbol, field: 'balance', operator: 'lt', value: 10, ...body } });

describe('POST /balance-monitors', () => {
  it('answers 201 with the monitor (value in major units; walletId the id, also when given an address)', async () => {
    const [alice] = p.customers;
    const res = await expectStatus(create({ walletId: alice.address, field: 'available', operator: 'gte', value: 12.5 }), 201);
    expect(res.monitor).toEqual({
      id: expect.any(String),
      projectId: p.projectId,
      walletId: alice.id,
      currency: p.symbol,
      field: 'available',
      operator: 'gte',
      value: 12.5,
      created_at: expect.stringMatching(ISO_MS),
    });
    const wide = await expectStatus(create({ value: 0 }), 201);
    expect(wide.monitor).toMatchObject({ walletId: null, value: 0, operator: 'lt' });
  });

  it.each([
    ['a missing field', { field: undefined }, 'field'],
    ['an unknown field', { field: 'held' }, 'field'],
    ['an unknown operator', { operator: 'eq' }, 'operator'],
    ['a negative value', { value: -1 }, 'value'],
    ['a value as text', { value: '10' }, 'value'],
    ['more decimals than the currency has', { value: 1.005 }, 'value'],
    ['more than 2^53-1 minor units', { value: 90071992547409.92 }, 'value'],
    ['an unknown body field', { extra: 1 }, 'extra'],
    ['a missing currency', { currency: undefined }, 'currency'],
    ['a projectId that is not an integer', { projectId: 'x' }, 'projectId'],
    ['an empty walletId', { walletId: '' }, 'walletId'],
  ])('refuses %s: 400 validation_error', async (_, body, field) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', details: { field } });
  });

  it('refuses what names nothing of the caller: 404 not_found', async () => {
    const other = await t.issueKey('monitors-rest-other', 'pro');
    const theirs = await fundedProject(t, other, { customers: 1 });
    for (const body of [{ projectId: 999_999 }, { projectId: theirs.projectId }, { currency: 'NOPE' }, { walletId: UNKNOWN_UUID }, { walletId: 'no-such-address' }, { walletId: theirs.customers[0].id }]) {
      const res = await create(body);
      expect([res.status, res.body.code]).toEqual([404, 'not_found']);
    }
  });

  it('refuses without a key: 401 unauthorized', async () => {
    const res = await t.request('POST', '/balance-monitors', { body: { projectId: p.projectId } });
    expect([res.status, res.body.code]).toEqual([401, 'unauthorized']);
  });

  it('refuses the 101st monitor of a project: 403 quota_exceeded', async () => {
    const q = await fundedProject(t, key, { customers: 1, name: 'quota' });
    const [{ n }] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM balance_monitors WHERE project_id = $1`, [q.projectId]);
    // the first 99 written by SQL (as the service would: counted on the asset too), the 100th through the API
    await t.db.query(
      `WITH m AS (INSERT INTO balance_monitors (project_id, asset_id, field, operator, value, created_at)
                  SELECT $1, $2, 'balance', 'gt', g, now() FROM generate_series(1, $3::int) g RETURNING 1)
       UPDATE assets SET monitors = monitors + (SELECT count(*) FROM m) WHERE id = $2`,
      [q.projectId, q.assetId, 99 - n],
    );
    const body = { projectId: q.projectId, currency: q.symbol, field: 'balance', operator: 'lt', value: 1 };
    await expectStatus(t.request('POST', '/balance-monitors', { key, body }), 201);
    const res = await t.request('POST', '/balance-monitors', { key, body });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 'quota_exceeded', message: expect.any(String), details: { quota: 'balance_monitors', limit: 100 } });
  });

  it('replays an Idempotency-Key: one monitor', async () => {
    const body = { projectId: p.projectId, currency: p.symbol, field: 'balance', operator: 'gt', value: 7 };
    const first = await expectStatus(t.request('POST', '/balance-monitors', { key, body, headers: { 'idempotency-key': 'monitor-once' } }), 201);
    const again = await expectStatus(t.request('POST', '/balance-monitors', { key, body, headers: { 'idempotency-key': 'monitor-once' } }), 201);
    expect(again).toEqual(first);
    const [{ n }] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM balance_monitors WHERE project_id = $1 AND value = 700`, [p.projectId]);
    expect(n).toBe(1);
  });
});

describe('GET /balance-monitors', () => {
  it('lists the project’s monitors oldest first, paged; walletId keeps that wallet’s own', async () => {
    const q = await fundedProject(t, key, { customers: 2, name: 'listing' });
    const [alice, bob] = q.customers;
    const made = [];
    for (const walletId of [alice.id, undefined, bob.id, alice.id]) {
      made.push((await expectStatus(t.request('POST', '/balance-monitors', { key, body: { projectId: q.projectId, currency: q.symbol, field: 'balance', operator: 'lt', value: 1, walletId } }), 201)).monitor);
    }
    const all = await expectStatus(t.request('GET', `/balance-monitors?projectId=${q.projectId}&limit=3`, { key }), 200);
    expect(all.monitors.map((m: any) => m.id)).toEqual(made.slice(0, 3).map((m) => m.id));
    expect(all.pagination).toEqual({ page: 1, limit: 3, total: 4, totalPages: 2 });
    const page2 = await expectStatus(t.request('GET', `/balance-monitors?projectId=${q.projectId}&limit=3&page=2`, { key }), 200);
    expect(page2.monitors).toEqual([made[3]]);
    const own = await expectStatus(t.request('GET', `/balance-monitors?projectId=${q.projectId}&walletId=${alice.address}`, { key }), 200);
    expect(own.monitors.map((m: any) => m.id)).toEqual([made[0].id, made[3].id]);
  });

  it('refuses bad queries (400) and what is not the caller’s (404)', async () => {
    const other = await t.issueKey('monitors-rest-lister', 'pro');
    for (const [query, status, code] of [
      ['', 400, 'validation_error'],
      [`projectId=${p.projectId}&limit=0`, 400, 'validation_error'],
      [`projectId=${p.projectId}&other=1`, 400, 'validation_error'],
      ['projectId=999999', 404, 'not_found'],
      [`projectId=${p.projectId}&walletId=${UNKNOWN_UUID}`, 404, 'not_found'],
    ] as const) {
      const res = await t.request('GET', `/balance-monitors?${query}`, { key });
      expect([query, res.status, res.body.code]).toEqual([query, status, code]);
    }
    const res = await t.request('GET', `/balance-monitors?projectId=${p.projectId}`, { key: other });
    expect([res.status, res.body.code]).toEqual([404, 'not_found']);
  });
});

describe('DELETE /balance-monitors/{id}', () => {
  it('deletes (200 {id, deleted}); then, and for another owner, 404; a malformed id 400', async () => {
    const m = (await expectStatus(create({}), 201)).monitor;
    const other = await t.issueKey('monitors-rest-deleter', 'pro');
    expect((await t.request('DELETE', `/balance-monitors/${m.id}`, { key: other })).status).toBe(404);
    expect(await expectStatus(t.request('DELETE', `/balance-monitors/${m.id}`, { key }), 200)).toEqual({ id: m.id, deleted: true });
    const again = await t.request('DELETE', `/balance-monitors/${m.id}`, { key });
    expect([again.status, again.body.code]).toEqual([404, 'not_found']);
    const bad = await t.request('DELETE', '/balance-monitors/not-a-uuid', { key });
    expect([bad.status, bad.body.code]).toEqual([400, 'validation_error']);
  });

  it('deleting a currency without activity takes its monitors (and the asset stays deletable)', async () => {
    const asset = await expectStatus(t.request('POST', '/assets', { key, body: { name: 'Gems', symbol: 'GEM', fractions: 0, projectId: p.projectId } }), 201);
    await expectStatus(create({ currency: 'GEM', value: 3 }), 201);
    await expectStatus(t.request('DELETE', `/assets/${asset.id}`, { key }), 200);
    const [{ n }] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM balance_monitors WHERE asset_id = $1`, [asset.id]);
    expect(n).toBe(0);
  });
});
