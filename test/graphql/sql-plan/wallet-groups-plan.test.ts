import { expectStatus, fundedProject, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { raw } from '../support/client.js';

/**
 * The nested read of wallet groups (CONTRACT §29): `project → walletGroups → balances + groups →
 * balances` is ONE statement (the SQL plan), whatever the number of groups and wallets.
 * Differential, as sql-plan.test.ts: `a` has plans, `b` has none, both serve one database, and
 * every document gets the same status and the same body, key order included, from both.
 */
let a: TestApp;
let b: TestApp;
let p: FundedProject;
let key: string;
const groups: Record<string, string> = {};

const post = (path: string, body: unknown) => expectStatus(a.request('POST', path, { key, body }), 201);
const put = (path: string, body: unknown) => expectStatus(a.request('PUT', path, { key, body }), 200);

beforeAll(async () => {
  a = await startTestApp();
  b = await startTestApp({ databaseUrl: a.databaseUrl, graphqlSqlPlans: false });
  key = await a.issueKey('groups-plan', 'enterprise');
  p = await fundedProject(a, key, { customers: 12, fund: 1.25, systemBalance: 1_000_000, fractions: 2 });
  await post('/assets', { name: 'Stars', symbol: 'STAR', fractions: 0, projectId: p.projectId });
  await post('/assets', { name: 'Atoms', symbol: 'ATOM', fractions: 18, projectId: p.projectId });
  // a tree: two roots, 'North' with children and a grandchild, an empty root
  const make = async (name: string, parentId?: string) => (groups[name] = (await post('/wallet-groups', { projectId: p.projectId, name, parentId })).group.id);
  await make('North');
  await make('South "quoted" \\ name');
  await make('Oslo', groups.North);
  await make('Bergen', groups.North);
  await make('Bergen harbour', groups.Bergen);
  await make('Empty');
  const c = p.customers;
  const placement: [string, number][] = [['North', 0], ['Oslo', 1], ['Oslo', 2], ['Bergen', 3], ['Bergen harbour', 4], ['South "quoted" \\ name', 5]];
  for (const [group, i] of placement) await put(`/wallet-groups/${groups[group]}/wallets/${c[i].id}`, { projectId: p.projectId });
  await post('/transactions/seed', { amount: 9007199254740991, currency: 'STAR', projectId: p.projectId, to: p.system.id });
  await post('/transactions', { amount: 9007199254740000, currency: 'STAR', projectId: p.projectId, from: p.system.id, to: c[4].id });
  await post('/transactions/seed', { amount: 0.000001, currency: 'ATOM', projectId: p.projectId, to: p.system.id });
  await post('/transactions', { amount: 0.000001, currency: 'ATOM', projectId: p.projectId, from: p.system.id, to: c[2].id });
  await post('/holds', { amount: 0.75, currency: p.symbol, projectId: p.projectId, from: c[1].id, to: c[9].id });
  await post('/transactions', { amount: 1.25, currency: p.symbol, projectId: p.projectId, from: c[3].id, to: c[10].id }); // Bergen back to 0
});
afterAll(async () => {
  await b.close();
  await a.close();
});

const NESTED = `query ($id: ID!, $first: Int!, $after: String, $parentId: ID) {
  project(id: $id) { id walletGroups(first: $first, after: $after, parentId: $parentId) { totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { cursor node { __typename id projectId name createdAt balances { currency assetId balance held available incoming wallets }
      groups { id name balances { currency balance held available incoming wallets } } } } } }
}`;

async function both(query: string, variables: Record<string, unknown>) {
  const [planned, resolved] = await Promise.all([raw(a, key, query, variables), raw(b, key, query, variables)]);
  return { planned, resolved };
}

describe('project → walletGroups → balances + groups → balances', () => {
  it('is one SQL statement, and prints what the resolvers print', async () => {
    const { planned, resolved } = await both(NESTED, { id: String(p.projectId), first: 20 });
    expect(planned.headers.get('x-graphql-plan')).toBe('sql');
    expect(planned.statements).toBe(1);
    expect(resolved.headers.get('x-graphql-plan')).toBeNull();
    expect(resolved.body.errors).toBeUndefined();
    expect(planned.status).toBe(resolved.status);
    expect(planned.text).toBe(resolved.text);
    const north = resolved.body.data.project.walletGroups.edges[0].node;
    expect(north.balances).toEqual([
      { currency: p.symbol, assetId: p.assetId, balance: '5', held: '0.75', available: '4.25', incoming: '0', wallets: 5 }, // 5 × 1.25, less Bergen's 1.25 sent out
      { currency: 'STAR', assetId: expect.any(String), balance: '9007199254740000', held: '0', available: '9007199254740000', incoming: '0', wallets: 5 },
      { currency: 'ATOM', assetId: expect.any(String), balance: '0.000001', held: '0', available: '0.000001', incoming: '0', wallets: 5 },
    ]);
    expect(north.groups.map((g: { name: string }) => g.name)).toEqual(['Oslo', 'Bergen']);
    expect(north.groups[1]).toEqual({
      id: groups.Bergen,
      name: 'Bergen',
      balances: [
        { currency: p.symbol, balance: '1.25', held: '0', available: '1.25', incoming: '0', wallets: 2 },
        { currency: 'STAR', balance: '9007199254740000', held: '0', available: '9007199254740000', incoming: '0', wallets: 2 },
      ],
    });
  });

  it('through the resolvers, a constant number of statements whatever the number of groups read (DataLoaders)', async () => {
    const one = await raw(b, key, NESTED, { id: String(p.projectId), first: 1 });
    const all = await raw(b, key, NESTED, { id: String(p.projectId), first: 20 });
    expect(all.body.data.project.walletGroups.edges).toHaveLength(3);
    expect(all.statements).toBe(one.statements);
  });

  it.each([
    ['page 1 of 2', { first: 2 }],
    ['an empty page', { first: 0 }],
    ["a parent's children", { first: 5, parent: 'North' }],
    ['a group without children', { first: 5, parent: 'Empty' }],
    ['an unknown parent', { first: 5, parentId: '00000000-0000-4000-8000-000000000000' }],
  ])('%s: the same body from both paths', async (_, { first, parent, parentId }: { first: number; parent?: string; parentId?: string }) => {
    const { planned, resolved } = await both(NESTED, { id: String(p.projectId), first, parentId: parent ? groups[parent] : parentId });
    expect(planned.headers.get('x-graphql-plan')).toBe('sql');
    expect(resolved.body.errors).toBeUndefined();
    expect(planned.text).toBe(resolved.text);
  });

  it('the next page after a cursor, aliases and fragments: the same body from both paths', async () => {
    const first = await raw(b, key, NESTED, { id: String(p.projectId), first: 1 });
    const after = first.body.data.project.walletGroups.pageInfo.endCursor;
    const { planned, resolved } = await both(NESTED, { id: String(p.projectId), first: 2, after });
    expect(planned.text).toBe(resolved.text);
    const aliased = `query ($id: ID!) { project(id: $id) { g: walletGroups { edges { node { ...G kids: groups { ...G } } } } } }
      fragment G on WalletGroup { n: name b: balances { c: currency v: balance w: wallets } }`;
    const pair = await both(aliased, { id: String(p.projectId) });
    expect(pair.planned.headers.get('x-graphql-plan')).toBe('sql');
    expect(pair.planned.text).toBe(pair.resolved.text);
  });

  it('walletGroup(id) is planned too; another owner’s or a missing one goes to the resolvers (not_found) on both', async () => {
    const query = `query ($id: ID!) { walletGroup(id: $id) { id name balances { currency balance held available wallets } groups { name } } }`;
    const own = await both(query, { id: groups.Bergen });
    expect(own.planned.headers.get('x-graphql-plan')).toBe('sql');
    expect(own.planned.text).toBe(own.resolved.text);
    const other = await a.issueKey('groups-plan-other', 'enterprise');
    const foreign = await Promise.all([raw(a, other, query, { id: groups.Bergen }), raw(b, other, query, { id: groups.Bergen })]);
    expect(foreign[0].text).toBe(foreign[1].text);
    expect(foreign[0].body.errors![0].extensions.code).toBe('not_found');
  });

  it('asOf, parent, wallets and metadata are the resolvers’ (no plan), and answer', async () => {
    const query = `query ($id: ID!) { project(id: $id) { walletGroups(first: 1) { edges { node { name metadata parent { id } wallets(first: 5) { totalCount edges { node { address group { name } } } } } } } } }`;
    const res = await raw(a, key, query, { id: String(p.projectId) });
    expect(res.headers.get('x-graphql-plan')).toBeNull();
    expect(res.body.data.project.walletGroups.edges[0].node).toEqual({
      name: 'North',
      metadata: null,
      parent: null,
      wallets: { totalCount: 1, edges: [{ node: { address: p.customers[0].address, group: { name: 'North' } } }] },
    });
  });
});
