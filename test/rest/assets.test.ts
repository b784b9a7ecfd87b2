import { ISO_MS, UNKNOWN_UUID, UUID_RE, expectStatus, fundedProject, seed } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let key: string;
let otherKey: string;
let projectId: number;
let foreignProjectId: number;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.issueKey('assets-owner', 'enterprise');
  otherKey = await t.issueKey('assets-intruder', 'pro');
  projectId = (await expectStatus(t.request('POST', '/projects', { key, body: { name: 'Assets home' } }), 201)).id;
  foreignProjectId = (await expectStatus(t.request('POST', '/projects', { key: otherKey, body: { name: 'Elsewhere' } }), 201)).id;
});
afterAll(() => t.close());

const newProject = async (k = key, body: Record<string, unknown> = {}) =>
  (await expectStatus(t.request('POST', '/projects', { key: k, body: { name: 'A project', ...body } }), 201)) as { id: number; asset_id: string | null };
const createAsset = (body: Record<string, unknown>, k = key) =>
  t.request('POST', '/assets', { key: k, body: { name: 'Points', symbol: 'PTS', fractions: 2, projectId, ...body } });
const newAsset = async (body: Record<string, unknown>, k = key) => expectStatus(createAsset(body, k), 201);
const getProject = async (id: number, k = key) => expectStatus(t.request('GET', `/projects/${id}`, { key: k }), 200);

function expectAssetShape(asset: any): void {
  expect(Object.keys(asset).sort()).toEqual(['created_at', 'expiresAfterSeconds', 'fractions', 'id', 'name', 'owner', 'projectId', 'symbol', 'updated_at']);
  expect(asset.id).toMatch(UUID_RE);
  expect(typeof asset.name).toBe('string');
  expect(typeof asset.symbol).toBe('string');
  expect(Number.isInteger(asset.fractions)).toBe(true);
  expect(typeof asset.owner).toBe('string');
  expect(Number.isInteger(asset.projectId)).toBe(true);
  expect(asset.created_at).toMatch(ISO_MS);
  expect(asset.updated_at).toMatch(ISO_MS);
}

describe('POST /assets', () => {
  it('creates an asset (201); the project’s first asset becomes its asset_id, later ones do not', async () => {
    const project = await newProject();
    const res = await createAsset({ name: ' Gold ', symbol: 'GOLD', fractions: 0, projectId: project.id });
    expect(res.status).toBe(201);
    expectAssetShape(res.body);
    expect(res.body).toMatchObject({ name: 'Gold', symbol: 'GOLD', fractions: 0, owner: 'assets-owner', projectId: project.id });
    expect((await getProject(project.id)).asset_id).toBe(res.body.id);
    await newAsset({ symbol: 'SILVER', fractions: 18, projectId: project.id });
    expect((await getProject(project.id)).asset_id).toBe(res.body.id);
  });

  it.each([
    ['a lower-case symbol', { symbol: 'pts' }, 'symbol'],
    ['a symbol over 12 characters', { symbol: 'ABCDEFGHIJKLM' }, 'symbol'],
    ['a symbol with a space', { symbol: 'A B' }, 'symbol'],
    ['an empty symbol', { symbol: '' }, 'symbol'],
    ['fractions above 18', { fractions: 19 }, 'fractions'],
    ['negative fractions', { fractions: -1 }, 'fractions'],
    ['fractional fractions', { fractions: 1.5 }, 'fractions'],
    ['fractions as a string', { fractions: '2' }, 'fractions'],
    ['a blank name', { name: ' ' }, 'name'],
    ['a name over 200 characters', { name: 'n'.repeat(201) }, 'name'],
    ['a missing projectId', { projectId: undefined }, 'projectId'],
    ['a projectId of 0', { projectId: 0 }, 'projectId'],
    ['a projectId beyond the column range', { projectId: 2 ** 31 }, 'projectId'],
    ['a string projectId', { projectId: '1' }, 'projectId'],
    ['an unknown field', { color: 'gold' }, 'color'],
  ])('refuses %s with 400 validation_error naming the field', async (_case, body, field) => {
    const res = await createAsset(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.details.field).toBe(field);
  });

  it('requires every field', async () => {
    const res = await t.request('POST', '/assets', { key, body: { projectId } });
    expect(res.status).toBe(400);
    expect(res.body.details.fields.map((f: any) => f.field).sort()).toEqual(['fractions', 'name', 'symbol']);
  });

  it('answers 404 for an unknown project and for another owner’s', async () => {
    for (const id of [2147483647, foreignProjectId]) {
      const res = await createAsset({ projectId: id });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });

  it('refuses a duplicate symbol within a project with 409 conflict; other projects may reuse it', async () => {
    const project = await newProject();
    await newAsset({ symbol: 'DUP', projectId: project.id });
    const res = await createAsset({ symbol: 'DUP', projectId: project.id });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
    const other = await newProject();
    expect((await createAsset({ symbol: 'DUP', projectId: other.id })).status).toBe(201);
  });

  it('refuses a symbol that clashes with the project’s shared primary asset (409)', async () => {
    const issuer = await newProject();
    const coin = await newAsset({ symbol: 'COIN', projectId: issuer.id });
    const sharer = await newProject(key, { asset_id: coin.id });
    expect((await createAsset({ symbol: 'COIN', projectId: sharer.id })).status).toBe(409);
    const own = await newAsset({ symbol: 'OWN', projectId: sharer.id });
    // the shared primary stays the primary
    expect((await getProject(sharer.id)).asset_id).toBe(coin.id);
    expect(own.projectId).toBe(sharer.id);
  });

  it('enforces assets_per_project per project: 403 quota_exceeded on the free plan', async () => {
    const free = await t.issueKey('assets-free', 'free');
    const project = await newProject(free);
    await newAsset({ symbol: 'ONE', projectId: project.id }, free);
    const res = await createAsset({ symbol: 'TWO', projectId: project.id }, free);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 'quota_exceeded', message: expect.any(String), details: { quota: 'assets_per_project', limit: 1 } });
  });

  it('counts the quota per project, exactly under concurrency', async () => {
    const starter = await t.issueKey('assets-starter', 'starter');
    const [a, b] = [await newProject(starter), await newProject(starter)];
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => createAsset({ symbol: `S${i}`, projectId: a.id }, starter)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 403)).toHaveLength(5);
    for (const symbol of ['X', 'Y', 'Z']) expect((await createAsset({ symbol, projectId: b.id }, starter)).status).toBe(201);
  });
});

describe('GET /assets', () => {
  let pagerKey: string;
  let p1: number;
  let p2: number;
  let ids: string[];
  beforeAll(async () => {
    pagerKey = await t.issueKey('assets-pager', 'pro');
    p1 = (await newProject(pagerKey)).id;
    p2 = (await newProject(pagerKey)).id;
    ids = [];
    for (const [symbol, project] of [['A1', p1], ['B1', p2], ['A2', p1], ['B2', p2], ['A3', p1]] as const) {
      ids.push((await newAsset({ symbol, projectId: project }, pagerKey)).id);
    }
  });

  it('lists the caller’s assets oldest first with pagination', async () => {
    const res = await t.request('GET', '/assets', { key: pagerKey });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 5, totalPages: 1 });
    expect(res.body.assets.map((a: any) => a.id)).toEqual(ids);
    res.body.assets.forEach(expectAssetShape);
  });

  it('pages; a page beyond the end is empty', async () => {
    const second = await t.request('GET', '/assets?page=2&limit=2', { key: pagerKey });
    expect(second.body.assets.map((a: any) => a.id)).toEqual(ids.slice(2, 4));
    expect(second.body.pagination).toEqual({ page: 2, limit: 2, total: 5, totalPages: 3 });
    const beyond = await t.request('GET', '/assets?page=9&limit=2', { key: pagerKey });
    expect(beyond.body).toEqual({ assets: [], pagination: { page: 9, limit: 2, total: 5, totalPages: 3 } });
  });

  it('filters by projectId', async () => {
    const res = await t.request('GET', `/assets?projectId=${p1}&limit=2`, { key: pagerKey });
    expect(res.body.assets.map((a: any) => a.symbol)).toEqual(['A1', 'A2']);
    expect(res.body.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
  });

  it('never shows another owner’s assets; their projectId answers 404 like an unknown one', async () => {
    const res = await t.request('GET', '/assets?limit=100', { key: otherKey });
    expect(res.body.assets.filter((a: any) => ids.includes(a.id))).toEqual([]);
    expect((await t.request('GET', `/assets?projectId=${p1}`, { key: otherKey })).status).toBe(404);
    expect((await t.request('GET', '/assets?projectId=2147483647', { key: otherKey })).status).toBe(404);
  });

  it.each(['projectId=abc', 'projectId=0', 'projectId=2147483648', 'page=0', 'limit=101', 'limit=x', 'owner=me'])('refuses ?%s with 400', async (query) => {
    const res = await t.request('GET', `/assets?${query}`, { key: pagerKey });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
  });
});

describe('GET /assets/{id}', () => {
  it('answers one asset', async () => {
    const created = await newAsset({ symbol: 'READ' });
    const res = await t.request('GET', `/assets/${created.id}`, { key });
    expect(res.status).toBe(200);
    expectAssetShape(res.body);
    expect(res.body).toEqual(created);
  });

  it('refuses a malformed id with 400 and answers 404 for unknown and foreign ids', async () => {
    expect((await t.request('GET', '/assets/not-a-uuid', { key })).status).toBe(400);
    expect((await t.request('GET', '/assets/123', { key })).status).toBe(400);
    expect((await t.request('GET', `/assets/${UNKNOWN_UUID}`, { key })).status).toBe(404);
    const foreign = await newAsset({ symbol: 'THEIRS', projectId: foreignProjectId }, otherKey);
    const res = await t.request('GET', `/assets/${foreign.id}`, { key });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('PUT /assets/{id}', () => {
  const update = (id: string, body: Record<string, unknown>, k = key) => t.request('PUT', `/assets/${id}`, { key: k, body });

  it('renames an asset and changes its symbol while it has no transactions', async () => {
    const project = await newProject();
    const asset = await newAsset({ symbol: 'OLD', projectId: project.id });
    await new Promise((r) => setTimeout(r, 5));
    const res = await update(asset.id, { name: 'Renamed', symbol: 'NEW', projectId: project.id });
    expect(res.status).toBe(200);
    expectAssetShape(res.body);
    expect(res.body).toMatchObject({ id: asset.id, name: 'Renamed', symbol: 'NEW', fractions: 2, created_at: asset.created_at });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(asset.updated_at));
    expect((await update(asset.id, { name: 'Only the name', projectId: project.id })).body).toMatchObject({ name: 'Only the name', symbol: 'NEW' });
  });

  it('refuses to change the symbol of an asset with transactions (409), still allows a rename', async () => {
    const p = await fundedProject(t, key, { symbol: 'USED', customers: 0, systemBalance: '5' });
    const res = await update(p.assetId, { symbol: 'OTHER', projectId: p.projectId });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
    expect((await update(p.assetId, { name: 'New name', symbol: 'USED', projectId: p.projectId })).status).toBe(200);
  });

  it('refuses a symbol already used in the project with 409', async () => {
    const project = await newProject();
    await newAsset({ symbol: 'TAKEN', projectId: project.id });
    const asset = await newAsset({ symbol: 'FREE', projectId: project.id });
    expect((await update(asset.id, { symbol: 'TAKEN', projectId: project.id })).status).toBe(409);
  });

  it('refuses a symbol that would clash in a project sharing the asset as primary (409)', async () => {
    const issuer = await newProject();
    const coin = await newAsset({ symbol: 'COIN', projectId: issuer.id });
    const sharer = await newProject(key, { asset_id: coin.id });
    await newAsset({ symbol: 'LOCAL', projectId: sharer.id });
    expect((await update(coin.id, { symbol: 'LOCAL', projectId: issuer.id })).status).toBe(409);
  });

  it('answers 404 when projectId is not the asset’s project, for unknown ids and for another owner’s asset', async () => {
    const project = await newProject();
    const asset = await newAsset({ symbol: 'HERE', projectId: project.id });
    expect((await update(asset.id, { name: 'x', projectId: projectId })).status).toBe(404);
    expect((await update(UNKNOWN_UUID, { name: 'x', projectId: project.id })).status).toBe(404);
    expect((await update(asset.id, { name: 'x', projectId: project.id }, otherKey)).status).toBe(404);
    expect((await t.request('GET', `/assets/${asset.id}`, { key })).body.name).toBe('Points');
  });

  it('accepts a body without projectId: only name, or only symbol (CONTRACT Clarifications §3)', async () => {
    const project = await newProject();
    const asset = await newAsset({ symbol: 'BARE', projectId: project.id });
    const renamed = await update(asset.id, { name: 'Just a name' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: asset.id, name: 'Just a name', symbol: 'BARE', projectId: project.id });
    const resymboled = await update(asset.id, { symbol: 'BARER' });
    expect(resymboled.status).toBe(200);
    expect(resymboled.body).toMatchObject({ id: asset.id, name: 'Just a name', symbol: 'BARER' });
    // Without projectId, tenancy still holds: another owner's asset is 404, and unchanged.
    expect((await update(asset.id, { name: 'stolen' }, otherKey)).status).toBe(404);
    expect((await t.request('GET', `/assets/${asset.id}`, { key })).body.name).toBe('Just a name');
  });

  it.each([
    ['neither name nor symbol', { projectId: 1 }, 'name'],
    ['an empty body', {}, 'name'],
    ['a bad symbol', { symbol: 'bad!', projectId: 1 }, 'symbol'],
    ['fractions (not updatable)', { fractions: 3, projectId: 1 }, 'fractions'],
  ])('refuses %s with 400', async (_case, body, field) => {
    const asset = await newAsset({ symbol: `V${Math.floor(Math.random() * 1e9)}`.slice(0, 12) });
    const res = await update(asset.id, body);
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe(field);
  });

  it('refuses a malformed id with 400', async () => {
    expect((await update('nope', { name: 'x', projectId })).status).toBe(400);
  });
});

describe('DELETE /assets/{id}', () => {
  const remove = (id: string, k = key) => t.request('DELETE', `/assets/${id}`, { key: k });

  it('deletes an asset without transactions: 200 {id, deleted: true}, then 404', async () => {
    const asset = await newAsset({ symbol: 'GONE' });
    const res = await remove(asset.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: asset.id, deleted: true });
    expect((await t.request('GET', `/assets/${asset.id}`, { key })).status).toBe(404);
    expect((await remove(asset.id)).status).toBe(404);
  });

  it('moves the primary asset to the oldest remaining one, then to null', async () => {
    const project = await newProject();
    const [a, b, c] = [await newAsset({ symbol: 'A', projectId: project.id }), await newAsset({ symbol: 'B', projectId: project.id }), await newAsset({ symbol: 'C', projectId: project.id })];
    expect((await getProject(project.id)).asset_id).toBe(a.id);
    await expectStatus(remove(b.id), 200);
    expect((await getProject(project.id)).asset_id).toBe(a.id);
    await expectStatus(remove(a.id), 200);
    expect((await getProject(project.id)).asset_id).toBe(c.id);
    await expectStatus(remove(c.id), 200);
    expect((await getProject(project.id)).asset_id).toBeNull();
  });

  it('moves every project sharing the deleted primary asset to its own oldest asset or null', async () => {
    const issuer = await newProject();
    const coin = await newAsset({ symbol: 'COIN', projectId: issuer.id });
    const bare = await newProject(key, { asset_id: coin.id });
    const withOwn = await newProject(key, { asset_id: coin.id });
    const own = await newAsset({ symbol: 'OWN', projectId: withOwn.id });
    await expectStatus(remove(coin.id), 200);
    expect((await getProject(issuer.id)).asset_id).toBeNull();
    expect((await getProject(bare.id)).asset_id).toBeNull();
    expect((await getProject(withOwn.id)).asset_id).toBe(own.id);
  });

  it('refuses to delete an asset with transactions: 409 asset_in_use, nothing changes', async () => {
    const p = await fundedProject(t, key, { symbol: 'INUSE', customers: 0, systemBalance: '1' });
    const res = await remove(p.assetId);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('asset_in_use');
    expect((await t.request('GET', `/assets/${p.assetId}`, { key })).status).toBe(200);
    expect((await getProject(p.projectId)).asset_id).toBe(p.assetId);
    await seed(t, p, p.system.id, 1);
  });

  it('refuses a malformed id with 400; answers 404 for unknown and another owner’s asset', async () => {
    expect((await remove('x')).status).toBe(400);
    expect((await remove(UNKNOWN_UUID)).status).toBe(404);
    const foreign = await newAsset({ symbol: 'KEEP', projectId: foreignProjectId }, otherKey);
    expect((await remove(foreign.id)).status).toBe(404);
    expect((await t.request('GET', `/assets/${foreign.id}`, { key: otherKey })).status).toBe(200);
  });
});
