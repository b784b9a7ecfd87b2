import { expectStatus, fundedProject, ISO_MS, transfer, UNKNOWN_UUID, type FundedProject } from '../support/fixtures.js';
import { groupSumDrift } from '../support/group-oracle.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** CONTRACT §29: the wallet-group verbs over REST, the tree rules, and the roll-ups they answer. */
let t: TestApp;
let p: FundedProject;

beforeAll(async () => {
  t = await startTestApp();
  p = await fundedProject(t, { owner: 'groups-rest' }, { customers: 6, fund: 10, systemBalance: 1000 });
});
afterAll(() => t.close());

const create = async (name: string, parentId?: string | null, body: Record<string, unknown> = {}) =>
  (await expectStatus(t.request('POST', '/wallet-groups', { key: p.key, body: { projectId: p.projectId, name, parentId, ...body } }), 201)).group;
const get = (id: string, query = '') => t.request('GET', `/wallet-groups/${id}${query}`, { key: p.key });
const add = (id: string, wallet: string, projectId = p.projectId) => t.request('PUT', `/wallet-groups/${id}/wallets/${wallet}`, { key: p.key, body: { projectId } });
const remove = (id: string, wallet: string) => t.request('DELETE', `/wallet-groups/${id}/wallets/${wallet}`, { key: p.key, body: { projectId: p.projectId } });
const move = (id: string, body: Record<string, unknown>) => t.request('PUT', `/wallet-groups/${id}`, { key: p.key, body: { projectId: p.projectId, ...body } });

describe('POST /wallet-groups', () => {
  it('answers 201 {"group"} with the fields of §29', async () => {
    const group = await create('Household', null, { metadata: { city: 'Oslo' } });
    expect(group).toEqual({ id: expect.any(String), projectId: p.projectId, name: 'Household', parentId: null, metadata: { city: 'Oslo' }, created_at: expect.stringMatching(ISO_MS) });
    const child = await create('Kids', group.id);
    expect(child.parentId).toBe(group.id);
  });

  it.each([
    ['an empty name', { name: '' }, 'name'],
    ['a name of 101 characters', { name: 'x'.repeat(101) }, 'name'],
    ['a parentId that is no uuid', { name: 'a', parentId: 'nope' }, 'parentId'],
    ['an unknown field', { name: 'a', colour: 'red' }, 'colour'],
  ])('refuses %s with 400 validation_error', async (_, body, field) => {
    const res = await t.request('POST', '/wallet-groups', { key: p.key, body: { projectId: p.projectId, ...body } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(JSON.stringify(res.body.details)).toContain(field);
  });

  it('takes a name of 100 characters counted as code points', async () => {
    expect((await create('🙂'.repeat(100))).name).toBe('🙂'.repeat(100));
  });

  it('404 for a missing parent or another owner’s project', async () => {
    const missing = await t.request('POST', '/wallet-groups', { key: p.key, body: { projectId: p.projectId, name: 'a', parentId: UNKNOWN_UUID } });
    expect([missing.status, missing.body.code]).toEqual([404, 'not_found']);
    const other = await fundedProject(t, { owner: 'groups-rest-other' }, { customers: 0, systemBalance: 0 });
    const foreign = await t.request('POST', '/wallet-groups', { key: other.key, body: { projectId: p.projectId, name: 'a' } });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'not_found']);
  });

  it('a tree is at most 8 deep (a root is depth 1): the 9th level is 400', async () => {
    let parent: string | null = null;
    for (let depth = 1; depth <= 8; depth++) parent = (await create(`level ${depth}`, parent)).id;
    const res = await t.request('POST', '/wallet-groups', { key: p.key, body: { projectId: p.projectId, name: 'level 9', parentId: parent } });
    expect([res.status, res.body.code]).toEqual([400, 'validation_error']);
  });
});

describe('balances over the whole subtree', () => {
  it('sums every wallet of the group and of its subgroups, exact after postings, adds, moves and removals', async () => {
    const [a, b, c, d] = p.customers;
    const root = await create('Region');
    const store = await create('Store', root.id);
    const till = await create('Till', store.id);
    await expectStatus(add(root.id, a.id), 200);
    await expectStatus(add(store.id, b.address), 200); // an address as in §4
    const answered = await expectStatus(add(till.id, c.id), 200);
    expect(answered.group).toMatchObject({ id: till.id, balances: [{ currency: p.symbol, balance: 10, held: 0, available: 10, incoming: 0, wallets: 1 }], groups: [] });

    const rootRead = (await expectStatus(get(root.id), 200)).group;
    expect(rootRead).toEqual({
      id: root.id,
      projectId: p.projectId,
      name: 'Region',
      parentId: null,
      metadata: null,
      created_at: root.created_at,
      balances: [{ currency: p.symbol, balance: 30, held: 0, available: 30, incoming: 0, wallets: 3 }],
      groups: [{ id: store.id, name: 'Store' }],
    });

    await transfer(t, p, c.id, d.id, 4); // out of the subtree
    await transfer(t, p, a.id, c.id, 2.5); // inside it: the root's sum stays
    const held = await expectStatus(t.request('POST', '/holds', { key: p.key, body: { amount: 1, currency: p.symbol, from: b.id, to: d.id, projectId: p.projectId } }), 201);
    expect((await expectStatus(get(root.id), 200)).group.balances).toEqual([{ currency: p.symbol, balance: 26, held: 1, available: 25, incoming: 0, wallets: 3 }]);
    expect((await expectStatus(get(store.id), 200)).group.balances).toEqual([{ currency: p.symbol, balance: 18.5, held: 1, available: 17.5, incoming: 0, wallets: 2 }]);
    expect((await expectStatus(get(till.id), 200)).group.balances).toEqual([{ currency: p.symbol, balance: 8.5, held: 0, available: 8.5, incoming: 0, wallets: 1 }]);
    await expectStatus(t.request('POST', `/holds/${held.hold.id}/capture`, { key: p.key, body: { projectId: p.projectId } }), 201);
    expect(await groupSumDrift(t, p.projectId)).toEqual([]);

    // adding a wallet elsewhere moves it: c leaves the till for the root
    await expectStatus(add(root.id, c.id), 200);
    expect((await expectStatus(get(till.id), 200)).group.balances).toEqual([]);
    expect((await expectStatus(t.request('GET', `/wallets/${c.id}`, { key: p.key }), 200)).groupId).toBe(root.id);
    expect((await expectStatus(t.request('GET', `/wallets/${d.id}`, { key: p.key }), 200)).groupId).toBeNull();
    // moving the store under the till (below itself) is a cycle; under a new root it leaves Region
    expect((await move(store.id, { parentId: till.id })).status).toBe(400);
    expect((await move(store.id, { parentId: store.id })).status).toBe(400);
    const other = await create('Other region');
    const moved = await expectStatus(move(store.id, { parentId: other.id, name: 'Store 2' }), 200);
    expect(moved.group).toMatchObject({ name: 'Store 2', parentId: other.id, groups: [{ id: till.id, name: 'Till' }] });
    expect((await expectStatus(get(other.id), 200)).group.balances).toEqual([{ currency: p.symbol, balance: 9, held: 0, available: 9, incoming: 0, wallets: 1 }]); // b: 10 − the captured 1
    expect((await expectStatus(get(root.id), 200)).group.balances).toMatchObject([{ balance: 16, wallets: 2 }]); // a 7.5 + c 8.5
    expect(await groupSumDrift(t, p.projectId)).toEqual([]);

    // removal
    expect((await remove(till.id, a.id)).status).toBe(404); // not in it
    const removed = await expectStatus(remove(root.id, a.id), 200);
    expect(removed.group.balances).toMatchObject([{ balance: 8.5, wallets: 1 }]);
    expect(await groupSumDrift(t, p.projectId)).toEqual([]);
  });

  it('a closed wallet stays in its group and counts', async () => {
    const [, , , , e] = p.customers;
    const group = await create('Closing');
    await expectStatus(add(group.id, e.id), 200);
    await transfer(t, p, e.id, p.system.id, 10);
    await expectStatus(t.request('PUT', `/wallets/status/${e.id}`, { key: p.key, body: { projectId: p.projectId, status: 'closed' } }), 200);
    expect((await expectStatus(get(group.id), 200)).group.balances).toEqual([{ currency: p.symbol, balance: 0, held: 0, available: 0, incoming: 0, wallets: 1 }]);
  });

  it('asOf: the posted balances then of the current wallets (held, available, incoming omitted); the future is 400', async () => {
    const [, , , , , f] = p.customers;
    const group = await create('History');
    await expectStatus(add(group.id, f.id), 200);
    const before = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5)); // two instants apart, not a synchronisation
    await transfer(t, p, p.system.id, f.id, 7);
    expect((await expectStatus(get(group.id, `?asOf=${before}`), 200)).group.balances).toEqual([{ currency: p.symbol, balance: 10, wallets: 1 }]);
    expect((await expectStatus(get(group.id), 200)).group.balances).toMatchObject([{ balance: 17 }]);
    expect((await get(group.id, '?asOf=2999-01-01T00:00:00Z')).status).toBe(400);
  });
});

describe('PUT /wallet-groups/{id}', () => {
  it('a move that would take the subtree deeper than 8 is 400; one that fits is made', async () => {
    let chain: string | null = null;
    const chainIds: string[] = [];
    for (let depth = 1; depth <= 5; depth++) chainIds.push((chain = (await create(`chain ${depth}`, chain)).id));
    let tall: string | null = null;
    const tallIds: string[] = [];
    for (let depth = 1; depth <= 4; depth++) tallIds.push((tall = (await create(`tall ${depth}`, tall)).id));
    const deep = await move(tallIds[0], { parentId: chainIds[4] }); // 5 + 4 = 9 levels
    expect([deep.status, deep.body.code]).toEqual([400, 'validation_error']);
    await expectStatus(move(tallIds[0], { parentId: chainIds[3] }), 200); // 4 + 4 = 8
    expect((await expectStatus(get(chainIds[3]), 200)).group.groups).toEqual([{ id: chainIds[4], name: 'chain 5' }, { id: tallIds[0], name: 'tall 1' }]);
    const rename = await expectStatus(move(tallIds[3], { name: 'leaf' }), 200); // parentId absent: stays
    expect(rename.group).toMatchObject({ name: 'leaf', parentId: tallIds[2] });
  });

  it('POST with an Idempotency-Key replays the first answer (§4)', async () => {
    const body = { projectId: p.projectId, name: 'Once' };
    const first = await t.request('POST', '/wallet-groups', { key: p.key, body, headers: { 'idempotency-key': 'group-once' } });
    const again = await t.request('POST', '/wallet-groups', { key: p.key, body, headers: { 'idempotency-key': 'group-once' } });
    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
  });
});

describe('membership', () => {
  it('404 for a wallet of another project, a missing wallet, a missing group', async () => {
    const group = await create('Members');
    const other = await fundedProject(t, p.key, { customers: 1, systemBalance: 0 });
    expect((await add(group.id, other.customers[0].id)).status).toBe(404);
    expect((await add(group.id, 'nobody')).status).toBe(404);
    expect((await add(UNKNOWN_UUID, p.customers[0].id)).status).toBe(404);
    expect((await add(group.id, p.customers[0].id, other.projectId)).status).toBe(404); // the group is not in that project
  });
});

describe('DELETE /wallet-groups/{id}', () => {
  it('409 while it has a wallet or a subgroup, 200 when empty', async () => {
    const parent = await create('To delete');
    const child = await create('Child', parent.id);
    expect((await t.request('DELETE', `/wallet-groups/${parent.id}`, { key: p.key })).body.code).toBe('conflict');
    await expectStatus(add(child.id, p.customers[3].id), 200);
    expect((await t.request('DELETE', `/wallet-groups/${child.id}`, { key: p.key })).status).toBe(409);
    await expectStatus(remove(child.id, p.customers[3].id), 200);
    expect(await expectStatus(t.request('DELETE', `/wallet-groups/${child.id}`, { key: p.key }), 200)).toEqual({ id: child.id, deleted: true });
    await expectStatus(t.request('DELETE', `/wallet-groups/${parent.id}`, { key: p.key }), 200);
    expect((await get(parent.id)).status).toBe(404);
  });
});

describe('GET /wallet-groups', () => {
  it("lists the project's roots, or parentId's children, oldest first, paged (§7)", async () => {
    const q = await fundedProject(t, p.key, { customers: 0, systemBalance: 0 });
    const r1 = (await expectStatus(t.request('POST', '/wallet-groups', { key: p.key, body: { projectId: q.projectId, name: 'r1' } }), 201)).group;
    await expectStatus(t.request('POST', '/wallet-groups', { key: p.key, body: { projectId: q.projectId, name: 'r2' } }), 201);
    await expectStatus(t.request('POST', '/wallet-groups', { key: p.key, body: { projectId: q.projectId, name: 'c1', parentId: r1.id } }), 201);
    const roots = await expectStatus(t.request('GET', `/wallet-groups?projectId=${q.projectId}&limit=1&page=2`, { key: p.key }), 200);
    expect(roots.groups.map((g: { name: string }) => g.name)).toEqual(['r2']);
    expect(roots.pagination).toMatchObject({ total: 2 });
    const children = await expectStatus(t.request('GET', `/wallet-groups?projectId=${q.projectId}&parentId=${r1.id}`, { key: p.key }), 200);
    expect(children.groups.map((g: { name: string }) => g.name)).toEqual(['c1']);
    expect((await t.request('GET', '/wallet-groups', { key: p.key })).status).toBe(400);
  });
});

describe('the quota', () => {
  it('the 10,001st group of a project is 403 quota_exceeded {quota: "wallet_groups", limit: 10000}', async () => {
    const q = await fundedProject(t, p.key, { customers: 0, systemBalance: 0 });
    // 9,999 made directly (the HTTP path is the same statement 9,999 times), the 10,000th through the API
    await t.db.query(
      `INSERT INTO wallet_groups (project_id, id, name, path, created_at, updated_at)
       SELECT $1, x.id, 'g', ARRAY[x.id], now(), now() FROM (SELECT gen_random_uuid() AS id FROM generate_series(1, 9999)) x`,
      [q.projectId],
    );
    await expectStatus(t.request('POST', '/wallet-groups', { key: p.key, body: { projectId: q.projectId, name: '10000th' } }), 201);
    const res = await t.request('POST', '/wallet-groups', { key: p.key, body: { projectId: q.projectId, name: '10001st' } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'quota_exceeded', details: { quota: 'wallet_groups', limit: 10000 } });
  });
});
