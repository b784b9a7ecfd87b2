import { expectStatus, ISO_MS, UNKNOWN_UUID, UUID_RE } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let key: string;
let other: string;
let projectId: number;
let othersProject: number;
beforeAll(async () => {
  t = await startTestApp(); // LEDGER_WEBHOOK_ALLOW_PRIVATE unset: private targets refused
  key = await t.issueKey('hooks-owner');
  other = await t.issueKey('hooks-other');
  projectId = (await expectStatus(t.request('POST', '/projects', { key, body: { name: 'Hooks' } }), 201)).id;
  othersProject = (await expectStatus(t.request('POST', '/projects', { key: other, body: { name: 'Not yours' } }), 201)).id;
});
afterAll(() => t.close());

const ALL_TYPES = ['transaction.posted', 'hold.created', 'hold.captured', 'hold.voided', 'hold.expired', 'wallet.status_changed', 'points.expired', 'balance.threshold_crossed', 'hold.maturity_refused'];
const PUBLIC_URL = 'https://93.184.215.14/hooks';
const create = (body: Record<string, unknown>, as = key, headers?: Record<string, string>) => t.request('POST', '/webhook-endpoints', { key: as, body, headers });

describe('POST /webhook-endpoints', () => {
  it('creates an endpoint and shows its secret once: whsec_ + padded standard base64 of 32 random bytes', async () => {
    const res = await create({ projectId, url: PUBLIC_URL });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(UUID_RE), projectId, url: PUBLIC_URL, types: ALL_TYPES, secret: expect.any(String), created_at: expect.stringMatching(ISO_MS) });
    const encoded = res.body.secret.slice('whsec_'.length);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(encoded.length % 4).toBe(0);
    expect(Buffer.from(encoded, 'base64').length).toBeGreaterThanOrEqual(24);
    expect(Buffer.from(encoded, 'base64').toString('base64')).toBe(encoded);
    const again = await create({ projectId, url: PUBLIC_URL });
    expect(again.body.secret).not.toBe(res.body.secret);
  });

  it('keeps the types asked for, once each, in the contract order; the URL as the WHATWG parser normalises it', async () => {
    const res = await create({ projectId, url: 'HTTPS://93.184.215.14:443/a/../in', types: ['hold.voided', 'transaction.posted', 'hold.voided'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ url: 'https://93.184.215.14/in', types: ['transaction.posted', 'hold.voided'] });
  });

  /** `P` stands for the caller's project (known once beforeAll has run). */
  it.each([
    [{ url: PUBLIC_URL }, 'projectId'],
    [{ projectId: 'P' }, 'url'],
    [{ projectId: 'P', url: '' }, 'url'],
    [{ projectId: 'P', url: 42 }, 'url'],
    [{ projectId: 'P', url: 'not a url' }, 'url'],
    [{ projectId: 'P', url: 'ftp://93.184.215.14/' }, 'url'],
    [{ projectId: 'P', url: PUBLIC_URL, types: [] }, 'types'],
    [{ projectId: 'P', url: PUBLIC_URL, types: ['transaction.created'] }, 'types.0'],
    [{ projectId: 'P', url: PUBLIC_URL, types: 'transaction.posted' }, 'types'],
    [{ projectId: 'P', url: PUBLIC_URL, secret: 'whsec_mine' }, 'secret'],
    [{ projectId: 'one', url: PUBLIC_URL }, 'projectId'],
  ] as [Record<string, unknown>, string][])('refuses %j: 400 validation_error on %s', async (body, field) => {
    const res = await create({ ...body, ...(body.projectId === 'P' && { projectId }) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', details: { field } });
  });

  it('refuses a URL over 2,048 characters', async () => {
    const res = await create({ projectId, url: `https://93.184.215.14/${'a'.repeat(2048)}` });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', details: { field: 'url' } });
  });

  it.each([
    'http://localhost:8080/',
    'http://2130706433/',
    'http://[::ffff:127.0.0.1]/',
    'http://0x7f.1/',
    'http://10.0.0.1',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1',
    'http://[fd00::1]',
    'http://[::1]:4000/',
    'http://0.0.0.0/',
  ])('refuses %s (400; LEDGER_WEBHOOK_ALLOW_PRIVATE unset)', async (url) => {
    const res = await create({ projectId, url });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', details: { field: 'url' } });
  });

  it.each(['http://93.184.215.14/', 'https://[2606:4700:4700::1111]/hooks'])('accepts the public address %s', async (url) => {
    await expectStatus(create({ projectId, url }), 201);
  });

  it("answers 404 for another owner's project after the fields' syntax is checked (400 first), before the URL is judged (CONTRACT §18)", async () => {
    const foreign = await create({ projectId: othersProject, url: PUBLIC_URL });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('not_found');
    expect((await create({ projectId: 2_000_000_000, url: PUBLIC_URL })).status).toBe(404);
    expect((await create({ projectId: othersProject, url: 42 })).status).toBe(400);
    expect((await create({ projectId: othersProject, url: 'http://10.0.0.1/' })).status).toBe(404);
  });

  it('is idempotent: the same Idempotency-Key and body replays the first answer (the same endpoint and secret)', async () => {
    const project = (await expectStatus(t.request('POST', '/projects', { key, body: { name: 'Idempotent hooks' } }), 201)).id;
    const headers = { 'Idempotency-Key': 'endpoint-once' };
    const first = await create({ projectId: project, url: PUBLIC_URL }, key, headers);
    const replay = await create({ projectId: project, url: PUBLIC_URL }, key, headers);
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const list = await t.request('GET', `/webhook-endpoints?projectId=${project}`, { key });
    expect(list.body.endpoints).toHaveLength(1);
    const reuse = await create({ projectId: project, url: 'https://93.184.215.14/other' }, key, headers);
    expect(reuse.status).toBe(422);
    expect(reuse.body.code).toBe('idempotency_key_reuse');
  });

  it('needs an api_key', async () => {
    const res = await t.request('POST', '/webhook-endpoints', { body: { projectId, url: PUBLIC_URL } });
    expect(res.status).toBe(401);
  });
});

describe('GET /webhook-endpoints', () => {
  let project: number;
  const created: string[] = [];
  beforeAll(async () => {
    project = (await expectStatus(t.request('POST', '/projects', { key, body: { name: 'Listed hooks' } }), 201)).id;
    for (const n of [1, 2, 3]) created.push((await expectStatus(create({ projectId: project, url: `https://93.184.215.14/${n}`, types: ['hold.created'] }), 201)).id);
  });

  it('lists the project endpoints oldest first, paged as §7, never with their secret', async () => {
    const first = await t.request('GET', `/webhook-endpoints?projectId=${project}&limit=2`, { key });
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
    expect(first.body.endpoints.map((e: { id: string }) => e.id)).toEqual(created.slice(0, 2));
    expect(first.body.endpoints[0]).toEqual({ id: created[0], projectId: project, url: 'https://93.184.215.14/1', types: ['hold.created'], created_at: expect.stringMatching(ISO_MS) });
    const second = await t.request('GET', `/webhook-endpoints?projectId=${project}&limit=2&page=2`, { key });
    expect(second.body.endpoints.map((e: { id: string }) => e.id)).toEqual(created.slice(2));
    expect(JSON.stringify([first.body, second.body])).not.toContain('whsec_');
  });

  it("answers 400 without projectId or with bad paging, 404 for another owner's project", async () => {
    expect((await t.request('GET', '/webhook-endpoints', { key })).status).toBe(400);
    expect((await t.request('GET', `/webhook-endpoints?projectId=${project}&limit=101`, { key })).status).toBe(400);
    expect((await t.request('GET', `/webhook-endpoints?projectId=${project}&page=0`, { key })).status).toBe(400);
    const foreign = await t.request('GET', `/webhook-endpoints?projectId=${project}`, { key: other });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('not_found');
  });
});

describe('DELETE /webhook-endpoints/{id}', () => {
  it('deletes the endpoint (200 {id, deleted: true}); it is no longer listed, and a second delete is 404', async () => {
    const project = (await expectStatus(t.request('POST', '/projects', { key, body: { name: 'Deleted hooks' } }), 201)).id;
    const endpoint = await expectStatus(create({ projectId: project, url: PUBLIC_URL }), 201);
    const res = await t.request('DELETE', `/webhook-endpoints/${endpoint.id}`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: endpoint.id, deleted: true });
    expect((await t.request('GET', `/webhook-endpoints?projectId=${project}`, { key })).body.endpoints).toEqual([]);
    expect((await t.request('DELETE', `/webhook-endpoints/${endpoint.id}`, { key })).status).toBe(404);
    expect((await t.request('GET', `/webhook-endpoints/${endpoint.id}/deliveries`, { key })).status).toBe(404);
  });

  it("answers 404 for another owner's endpoint (and leaves it), 404 for an unknown id, 400 for a malformed one", async () => {
    const endpoint = await expectStatus(create({ projectId, url: PUBLIC_URL }), 201);
    expect((await t.request('DELETE', `/webhook-endpoints/${endpoint.id}`, { key: other })).status).toBe(404);
    expect((await t.request('GET', `/webhook-endpoints/${endpoint.id}/deliveries`, { key })).status).toBe(200);
    expect((await t.request('DELETE', `/webhook-endpoints/${UNKNOWN_UUID}`, { key })).status).toBe(404);
    const malformed = await t.request('DELETE', '/webhook-endpoints/42', { key });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('validation_error');
  });
});

describe('GET /webhook-endpoints/{id}/deliveries', () => {
  it('answers an empty, paged log for a new endpoint', async () => {
    const endpoint = await expectStatus(create({ projectId, url: PUBLIC_URL }), 201);
    const res = await t.request('GET', `/webhook-endpoints/${endpoint.id}/deliveries`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deliveries: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } });
  });

  it("answers 404 for another owner's endpoint or an unknown one, 400 for a malformed id or bad paging", async () => {
    const endpoint = await expectStatus(create({ projectId, url: PUBLIC_URL }), 201);
    expect((await t.request('GET', `/webhook-endpoints/${endpoint.id}/deliveries`, { key: other })).status).toBe(404);
    expect((await t.request('GET', `/webhook-endpoints/${UNKNOWN_UUID}/deliveries`, { key })).status).toBe(404);
    expect((await t.request('GET', '/webhook-endpoints/nope/deliveries', { key })).status).toBe(400);
    expect((await t.request('GET', `/webhook-endpoints/${endpoint.id}/deliveries?limit=0`, { key })).status).toBe(400);
  });
});
