import { ISO_MS, UNKNOWN_UUID, expectStatus } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let key: string;
let otherKey: string;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.issueKey('projects-owner', 'enterprise');
  otherKey = await t.issueKey('projects-intruder', 'pro');
});
afterAll(() => t.close());

const create = (body: unknown, k = key) => t.request('POST', '/projects', { key: k, body });

function expectProjectShape(project: any): void {
  expect(Object.keys(project).sort()).toEqual(
    ['asset_id', 'created_at', 'exchangeRate', 'id', 'metadata', 'name', 'owner', 'supportExchangeRate', 'type', 'updated_at'].sort(),
  );
  expect(Number.isInteger(project.id)).toBe(true);
  expect(project.id).toBeGreaterThan(0);
  expect(project.asset_id === null || typeof project.asset_id === 'string').toBe(true);
  expect(typeof project.name).toBe('string');
  expect(project.type).toBe('loyalty');
  expect(typeof project.exchangeRate).toBe('number');
  expect(typeof project.supportExchangeRate).toBe('boolean');
  expect(project.metadata).toEqual(expect.any(Object));
  expect(Array.isArray(project.metadata)).toBe(false);
  expect(typeof project.owner).toBe('string');
  expect(project.created_at).toMatch(ISO_MS);
  expect(project.updated_at).toMatch(ISO_MS);
}

describe('POST /projects', () => {
  it('creates a project with the documented defaults (201)', async () => {
    const res = await create({ name: '  Coffee club  ' });
    expect(res.status).toBe(201);
    expectProjectShape(res.body);
    expect(res.body).toMatchObject({
      asset_id: null,
      name: 'Coffee club',
      type: 'loyalty',
      exchangeRate: 1,
      supportExchangeRate: false,
      metadata: {},
      owner: 'projects-owner',
    });
  });

  it('stores every field it is given, the exchange rate as a JSON number', async () => {
    const metadata = { tier: 'gold', nested: { list: [1, 2, 3], flag: true } };
    const res = await create({ name: 'Bakery', type: 'loyalty', exchangeRate: 0.125, supportExchangeRate: true, metadata, asset_id: null });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Bakery', exchangeRate: 0.125, supportExchangeRate: true, metadata });
    const read = await t.request('GET', `/projects/${res.body.id}`, { key });
    expect(read.body).toEqual(res.body);
  });

  it('shares an asset of another of the caller’s projects as primary currency', async () => {
    const first = await expectStatus(create({ name: 'Issuer' }), 201);
    const asset = await expectStatus(t.request('POST', '/assets', { key, body: { name: 'Coin', symbol: 'COIN', fractions: 2, projectId: first.id } }), 201);
    const res = await create({ name: 'Sharer', asset_id: asset.id });
    expect(res.status).toBe(201);
    expect(res.body.asset_id).toBe(asset.id);
  });

  it('answers 404 when asset_id names an unknown asset or another owner’s', async () => {
    const foreignProject = await expectStatus(create({ name: 'Foreign' }, otherKey), 201);
    const foreign = await expectStatus(
      t.request('POST', '/assets', { key: otherKey, body: { name: 'Foreign', symbol: 'FOR', fractions: 0, projectId: foreignProject.id } }),
      201,
    );
    for (const assetId of [UNKNOWN_UUID, foreign.id]) {
      const res = await create({ name: 'Nope', asset_id: assetId });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'not_found', message: expect.any(String), details: expect.any(Object) });
    }
  });

  it.each([
    ['a missing name', {}, 'name'],
    ['a blank name', { name: '   ' }, 'name'],
    ['a name over 200 characters', { name: 'x'.repeat(201) }, 'name'],
    ['a number as name', { name: 42 }, 'name'],
    ['an unknown type', { name: 'p', type: 'cashback' }, 'type'],
    ['a zero exchangeRate', { name: 'p', exchangeRate: 0 }, 'exchangeRate'],
    ['a negative exchangeRate', { name: 'p', exchangeRate: -2 }, 'exchangeRate'],
    ['a string exchangeRate', { name: 'p', exchangeRate: '1.5' }, 'exchangeRate'],
    ['a non-boolean supportExchangeRate', { name: 'p', supportExchangeRate: 'yes' }, 'supportExchangeRate'],
    ['metadata that is an array', { name: 'p', metadata: [1] }, 'metadata'],
    ['metadata that is a string', { name: 'p', metadata: 'x' }, 'metadata'],
    ['metadata over 16 KiB', { name: 'p', metadata: { blob: 'x'.repeat(16 * 1024) } }, 'metadata'],
    ['a malformed asset_id', { name: 'p', asset_id: 'not-a-uuid' }, 'asset_id'],
    ['an unknown field', { name: 'p', color: 'red' }, 'color'],
  ])('refuses %s with 400 validation_error naming the field', async (_case, body, field) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.details.field).toBe(field);
  });

  it('accepts metadata of exactly 16 KiB serialised', async () => {
    const blob = 'x'.repeat(16 * 1024 - '{"blob":""}'.length);
    expect((await create({ name: 'Full', metadata: { blob } })).status).toBe(201);
  });

  it('replays a create sent again with the same Idempotency-Key, creating nothing more', async () => {
    const owner = await t.issueKey('projects-idempotent', 'pro');
    const headers = { 'Idempotency-Key': 'create-once' };
    const first = await t.request('POST', '/projects', { key: owner, body: { name: 'Once' }, headers });
    const again = await t.request('POST', '/projects', { key: owner, body: { name: 'Once' }, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await t.request('GET', '/projects', { key: owner })).body.pagination.total).toBe(1);
  });

  it('answers 401 without an api_key', async () => {
    expect((await t.request('POST', '/projects', { body: { name: 'x' } })).status).toBe(401);
  });

  it('enforces the projects quota: 403 quota_exceeded on the free plan', async () => {
    const free = await t.issueKey('projects-free', 'free');
    expect((await create({ name: 'only one' }, free)).status).toBe(201);
    const res = await create({ name: 'one too many' }, free);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 'quota_exceeded', message: expect.any(String), details: { quota: 'projects', limit: 1 } });
  });

  it('keeps the quota exact under concurrent creation', async () => {
    const starter = await t.issueKey('projects-race', 'starter');
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => create({ name: `race ${i}` }, starter)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 403)).toHaveLength(7);
    const list = await t.request('GET', '/projects', { key: starter });
    expect(list.body.pagination.total).toBe(3);
  });
});

describe('GET /projects', () => {
  let pager: string;
  let ids: number[];
  beforeAll(async () => {
    pager = await t.issueKey('projects-pager', 'pro');
    ids = [];
    for (let i = 1; i <= 5; i++) ids.push((await expectStatus(create({ name: `P${i}` }, pager), 201)).id);
  });

  it('lists the caller’s projects oldest first with pagination', async () => {
    const res = await t.request('GET', '/projects', { key: pager });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 5, totalPages: 1 });
    expect(res.body.projects.map((p: any) => p.id)).toEqual(ids);
    res.body.projects.forEach(expectProjectShape);
  });

  it('pages with page and limit; a page beyond the end is empty', async () => {
    const pages = await Promise.all([1, 2, 3, 4].map((page) => t.request('GET', `/projects?page=${page}&limit=2`, { key: pager })));
    expect(pages.map((p) => p.body.projects.map((x: any) => x.id))).toEqual([[ids[0], ids[1]], [ids[2], ids[3]], [ids[4]], []]);
    for (const [i, p] of pages.entries()) expect(p.body.pagination).toEqual({ page: i + 1, limit: 2, total: 5, totalPages: 3 });
  });

  it('shows no other owner’s project; an owner without projects gets total 0, totalPages 0', async () => {
    const res = await t.request('GET', '/projects?limit=100', { key: otherKey });
    expect(res.body.projects.every((p: any) => p.owner === 'projects-intruder')).toBe(true);
    expect(res.body.projects.map((p: any) => p.id)).not.toEqual(expect.arrayContaining([ids[0]]));
    const empty = await t.request('GET', '/projects', { key: await t.issueKey('projects-none') });
    expect(empty.body).toEqual({ projects: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } });
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=', 'limit'],
    ['sort=name', 'sort'],
  ])('refuses ?%s with 400 validation_error', async (query, field) => {
    const res = await t.request('GET', `/projects?${query}`, { key: pager });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.details.field).toBe(field);
  });
});

describe('GET /projects/{id}', () => {
  it('answers one project', async () => {
    const created = await expectStatus(create({ name: 'Readable' }), 201);
    const res = await t.request('GET', `/projects/${created.id}`, { key });
    expect(res.status).toBe(200);
    expectProjectShape(res.body);
    expect(res.body).toEqual(created);
  });

  it.each(['abc', '0', '-1', '1.5', '2147483648', '99999999999'])('refuses the malformed id %s with 400', async (id) => {
    const res = await t.request('GET', `/projects/${id}`, { key });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.details.field).toBe('id');
  });

  it('answers 404 for an unknown id and for another owner’s project, alike', async () => {
    const foreign = await expectStatus(create({ name: 'Private' }, otherKey), 201);
    const unknown = await t.request('GET', '/projects/2147483647', { key });
    const hidden = await t.request('GET', `/projects/${foreign.id}`, { key });
    expect(unknown.status).toBe(404);
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe('not_found');
    expect(Object.keys(hidden.body).sort()).toEqual(['code', 'details', 'message']);
  });
});

describe('PUT /projects/{id}', () => {
  it('renames a project and moves updated_at', async () => {
    const created = await expectStatus(create({ name: 'Old name', metadata: { a: 1 } }), 201);
    await new Promise((r) => setTimeout(r, 5));
    const res = await t.request('PUT', `/projects/${created.id}`, { key, body: { name: ' New name ' } });
    expect(res.status).toBe(200);
    expectProjectShape(res.body);
    expect(res.body).toMatchObject({ id: created.id, name: 'New name', metadata: { a: 1 }, created_at: created.created_at });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
    expect((await t.request('GET', `/projects/${created.id}`, { key })).body.name).toBe('New name');
  });

  it.each([
    ['a missing name', {}, 'name'],
    ['a blank name', { name: '' }, 'name'],
    ['another field', { name: 'x', exchangeRate: 2 }, 'exchangeRate'],
  ])('refuses %s with 400', async (_case, body, field) => {
    const created = await expectStatus(create({ name: 'Stable' }), 201);
    const res = await t.request('PUT', `/projects/${created.id}`, { key, body });
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe(field);
  });

  it('refuses a malformed id with 400', async () => {
    expect((await t.request('PUT', '/projects/x1', { key, body: { name: 'x' } })).status).toBe(400);
  });

  it('answers 404 for an unknown project and for another owner’s, changing nothing', async () => {
    const foreign = await expectStatus(create({ name: 'Theirs' }, otherKey), 201);
    expect((await t.request('PUT', '/projects/2147483000', { key, body: { name: 'x' } })).status).toBe(404);
    expect((await t.request('PUT', `/projects/${foreign.id}`, { key, body: { name: 'Mine now' } })).status).toBe(404);
    expect((await t.request('GET', `/projects/${foreign.id}`, { key: otherKey })).body.name).toBe('Theirs');
  });
});

describe('GET /openapi.json', () => {
  it('documents every project, asset and wallet operation with its success schema and errors', async () => {
    const { paths } = (await t.request('GET', '/openapi.json')).body;
    const expected: [string, string, string, string[]][] = [
      ['/projects', 'post', '201', ['403', '404']],
      ['/projects', 'get', '200', ['400']],
      ['/projects/{id}', 'get', '200', ['400', '404']],
      ['/projects/{id}', 'put', '200', ['400', '404']],
      ['/assets', 'post', '201', ['403', '404', '409']],
      ['/assets', 'get', '200', ['400', '404']],
      ['/assets/{id}', 'get', '200', ['400', '404']],
      ['/assets/{id}', 'put', '200', ['400', '404', '409']],
      ['/assets/{id}', 'delete', '200', ['400', '404', '409']],
      ['/wallets/create/{type}', 'post', '201', ['400', '403', '404', '409']],
      ['/wallets/customer', 'get', '200', ['400', '404']],
      ['/wallets/system', 'get', '200', ['400', '404']],
      ['/wallets/{id}', 'get', '200', ['400', '404']],
      ['/wallets/status/{id}', 'put', '200', ['400', '404', '409']],
    ];
    for (const [path, method, success, errors] of expected) {
      const operation = paths[path]?.[method];
      expect(operation).toBeDefined();
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining([success, '401', ...errors]));
    }
    expect(paths['/assets'].get.parameters.map((p: any) => p.name).sort()).toEqual(['limit', 'page', 'projectId']);
    expect(paths['/wallets/status/{id}'].put.requestBody).toBeDefined();
  });
});
