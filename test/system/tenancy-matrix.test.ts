import { startTestApp, type TestApp } from '../support/test-app.js';
import { fundedProject, type FundedProject } from '../support/fixtures.js';
import { stateSnapshot } from '../http/fuzz/oracle.js';

/**
 * CONTRACT §2 tenancy, as a matrix: every REST endpoint and every GraphQL query, mutation and
 * `_entities` type, called by a second owner (bob) on the first owner's (alice's) resources.
 * REST answers 404 not_found exactly as for a missing resource; GraphQL answers null or
 * not_found; lists never show a foreign item; nothing of alice's changes. Each call is then
 * made by alice herself (the control), so every 404 is due to the owner and nothing else.
 */
interface Rest {
  method: string;
  path: string;
  body?: unknown;
}

interface Gql {
  query: string;
  variables?: Record<string, unknown>;
  /** The root field whose value must be null (or refused with not_found). */
  field: string;
}

let t: TestApp;
let alice: FundedProject;
let bob: FundedProject;
let spareAssetId: string;
let aliceTxId: string;

beforeAll(async () => {
  t = await startTestApp();
  alice = await fundedProject(t, await t.issueKey('tenancy-alice', 'pro'), { customers: 1, systemBalance: '100' });
  bob = await fundedProject(t, await t.issueKey('tenancy-bob', 'pro'), { customers: 1, systemBalance: '100' });
  const spare = await t.request('POST', '/assets', { key: alice.key, body: { name: 'Spare', symbol: 'SPARE', fractions: 0, projectId: alice.projectId } });
  spareAssetId = spare.body.id;
  const tx = await t.request('POST', '/transactions', { key: alice.key, body: { amount: 1, currency: alice.symbol, from: alice.system.id, to: alice.customers[0].id, projectId: alice.projectId } });
  aliceTxId = tx.body.transaction.id;
});
afterAll(() => t.close());

// The matrices are built twice: with a stub to name the tests at collection time, then with the real fixtures.
const STUB: FundedProject = { key: '', projectId: 0, assetId: '', symbol: '', fractions: 0, system: { id: '', address: '' }, customers: [{ id: '', address: '' }], seedId: null, funding: [] };
const A = () => alice ?? STUB;
const B = () => bob ?? STUB;

/** Alice's resources addressed directly; bob's own project with alice's references in it. */
function restMatrix(): Record<string, Rest> {
  const a = A();
  const transfer = { amount: 0.01, currency: a.symbol, from: a.system.id, to: a.customers[0].id, projectId: a.projectId };
  return {
    'GET /projects/{id}': { method: 'GET', path: `/projects/${a.projectId}` },
    'PUT /projects/{id}': { method: 'PUT', path: `/projects/${a.projectId}`, body: { name: 'Funded project' } },
    'POST /projects (asset_id)': { method: 'POST', path: '/projects', body: { name: 'shares alice asset', asset_id: a.assetId } },
    'GET /assets?projectId': { method: 'GET', path: `/assets?projectId=${a.projectId}` },
    'GET /assets/{id}': { method: 'GET', path: `/assets/${a.assetId}` },
    'PUT /assets/{id}': { method: 'PUT', path: `/assets/${a.assetId}`, body: { projectId: a.projectId, name: `${a.symbol} asset` } },
    'DELETE /assets/{id}': { method: 'DELETE', path: `/assets/${spareAssetId}` },
    'POST /assets': { method: 'POST', path: '/assets', body: { name: 'Intruder', symbol: 'INTR', fractions: 2, projectId: a.projectId } },
    'POST /wallets/create/customer': { method: 'POST', path: '/wallets/create/customer', body: { projectId: a.projectId } },
    'POST /wallets/create/system': { method: 'POST', path: '/wallets/create/system', body: { projectId: a.projectId } },
    'GET /wallets/customer?projectId': { method: 'GET', path: `/wallets/customer?projectId=${a.projectId}` },
    'GET /wallets/system?projectId': { method: 'GET', path: `/wallets/system?projectId=${a.projectId}` },
    'GET /wallets/{id}': { method: 'GET', path: `/wallets/${a.customers[0].id}` },
    'PUT /wallets/status/{id}': { method: 'PUT', path: `/wallets/status/${a.customers[0].id}`, body: { projectId: a.projectId, status: 'active' } },
    'POST /transactions': { method: 'POST', path: '/transactions', body: transfer },
    'POST /transactions/seed': { method: 'POST', path: '/transactions/seed', body: { amount: 1, currency: a.symbol, projectId: a.projectId, to: a.system.id } },
    'GET /transactions?walletId (id)': { method: 'GET', path: `/transactions?walletId=${a.customers[0].id}` },
    'GET /transactions?walletId (address)': { method: 'GET', path: `/transactions?walletId=${a.customers[0].address}&projectId=${a.projectId}` },
    'POST /webhook (recorded flow)': { method: 'POST', path: '/webhook', body: { flowId: 'tenancy-probe', projectId: a.projectId, values: {} } },
    'POST /webhook (reward)': { method: 'POST', path: '/webhook', body: { flowId: 'reward', projectId: a.projectId, values: { to: a.customers[0].id, amount: 1 } } },
  };
}

/** Bob's own project, naming alice's wallets: a reference across owners is a missing one. */
function crossReferences(): Record<string, Rest> {
  const a = A();
  const b = B();
  return {
    'POST /transactions (bob project, alice sender)': { method: 'POST', path: '/transactions', body: { amount: 0.01, currency: b.symbol, from: a.system.id, to: b.customers[0].id, projectId: b.projectId } },
    'POST /transactions (bob project, alice receiver)': { method: 'POST', path: '/transactions', body: { amount: 0.01, currency: b.symbol, from: b.system.id, to: a.customers[0].id, projectId: b.projectId } },
    'POST /transactions/seed (bob project, alice wallet)': { method: 'POST', path: '/transactions/seed', body: { amount: 1, currency: b.symbol, projectId: b.projectId, to: a.system.id } },
    'GET /transactions (alice wallet id, bob project)': { method: 'GET', path: `/transactions?walletId=${a.customers[0].id}&projectId=${b.projectId}` },
    'PUT /wallets/status/{alice wallet} (bob project)': { method: 'PUT', path: `/wallets/status/${a.customers[0].id}`, body: { projectId: b.projectId, status: 'active' } },
    'PUT /assets/{alice asset} (bob project)': { method: 'PUT', path: `/assets/${a.assetId}`, body: { projectId: b.projectId, name: 'x' } },
    'POST /webhook (bob project, reward to alice wallet)': { method: 'POST', path: '/webhook', body: { flowId: 'reward', projectId: b.projectId, values: { to: a.customers[0].id, amount: 1 } } },
    'POST /webhook (bob project, redeem from alice wallet)': { method: 'POST', path: '/webhook', body: { flowId: 'redeem', projectId: b.projectId, values: { from: a.customers[0].id, amount: 1 } } },
  };
}

function graphqlMatrix(): Record<string, Gql> {
  const a = A();
  const pid = String(a.projectId);
  return {
    'project(id)': { query: 'query($id: ID!) { project(id: $id) { id } }', variables: { id: pid }, field: 'project' },
    'asset(id)': { query: 'query($id: ID!) { asset(id: $id) { id } }', variables: { id: a.assetId }, field: 'asset' },
    'wallet(id)': { query: 'query($id: ID!) { wallet(id: $id) { id } }', variables: { id: a.customers[0].id }, field: 'wallet' },
    'wallets(projectId)': { query: 'query($p: ID!) { wallets(projectId: $p) { totalCount edges { node { id } } } }', variables: { p: pid }, field: 'wallets' },
    'assets(projectId)': { query: 'query($p: ID) { assets(projectId: $p) { totalCount edges { node { id } } } }', variables: { p: pid }, field: 'assets' },
    'transactions(walletId)': { query: 'query($w: String!) { transactions(walletId: $w) { totalCount } }', variables: { w: a.customers[0].id }, field: 'transactions' },
    'transactions(walletId: address, projectId)': {
      query: 'query($w: String!, $p: ID) { transactions(walletId: $w, projectId: $p) { totalCount } }',
      variables: { w: a.customers[0].address, p: pid },
      field: 'transactions',
    },
    'webhookEvents(projectId)': { query: 'query($p: ID!) { webhookEvents(projectId: $p) { totalCount } }', variables: { p: pid }, field: 'webhookEvents' },
    createProject: { query: 'mutation($a: ID) { createProject(input: { name: "x", assetId: $a }) { id } }', variables: { a: a.assetId }, field: 'createProject' },
    renameProject: { query: 'mutation($id: ID!) { renameProject(id: $id, name: "Funded project") { id } }', variables: { id: pid }, field: 'renameProject' },
    createAsset: { query: 'mutation($p: ID!) { createAsset(input: { projectId: $p, name: "I", symbol: "INTRG", fractions: 0 }) { id } }', variables: { p: pid }, field: 'createAsset' },
    updateAsset: { query: 'mutation($id: ID!, $p: ID!) { updateAsset(id: $id, input: { projectId: $p, name: "PTS asset" }) { id } }', variables: { id: a.assetId, p: pid }, field: 'updateAsset' },
    deleteAsset: { query: 'mutation($id: ID!) { deleteAsset(id: $id) { id } }', variables: { id: spareAssetId }, field: 'deleteAsset' },
    createWallet: { query: 'mutation($p: ID!) { createWallet(type: CUSTOMER, input: { projectId: $p }) { id } }', variables: { p: pid }, field: 'createWallet' },
    setWalletStatus: { query: 'mutation($id: ID!, $p: ID!) { setWalletStatus(id: $id, input: { projectId: $p, status: ACTIVE }) { id } }', variables: { id: a.customers[0].id, p: pid }, field: 'setWalletStatus' },
    transfer: {
      query: 'mutation($i: TransferInput!) { transfer(input: $i) { id } }',
      variables: { i: { projectId: pid, currency: a.symbol, from: a.system.id, to: a.customers[0].id, amount: '0.01' } },
      field: 'transfer',
    },
    seed: { query: 'mutation($i: SeedInput!) { seed(input: $i) { id } }', variables: { i: { projectId: pid, currency: a.symbol, to: a.system.id, amount: '1' } }, field: 'seed' },
    webhook: { query: 'mutation($p: ID!) { webhook(input: { flowId: "tenancy-probe", projectId: $p, values: {} }) { success } }', variables: { p: pid }, field: 'webhook' },
  };
}

const ENTITY_TYPES = () => ({
  Project: String(A().projectId),
  Asset: A().assetId,
  Wallet: A().customers[0].id,
  Transaction: aliceTxId,
});
const names = (matrix: Record<string, unknown>) => Object.keys(matrix);

describe('tenancy matrix: bob on alice’s resources', () => {
  let before: unknown;
  const aliceRows = async () => {
    const snapshot = (await stateSnapshot(t.db)) as Record<string, unknown[]>;
    const [{ events }] = await t.db.query<{ events: string }>(`SELECT count(*)::text AS events FROM webhook_events WHERE project_id = $1`, [alice.projectId]);
    return { ...snapshot, events };
  };
  beforeAll(async () => {
    before = await aliceRows();
  });

  it.each(names({ ...restMatrix(), ...crossReferences() }))('REST %s → 404 not_found', async (name) => {
    const call = { ...restMatrix(), ...crossReferences() }[name];
    const res = await t.request(call.method, call.path, { key: bob.key, body: call.body });
    expect([res.status, res.body]).toEqual([404, { code: 'not_found', message: expect.any(String), details: expect.any(Object) }]);
  });

  it.each(names(graphqlMatrix()))('GraphQL %s → null or not_found', async (name) => {
    const call = graphqlMatrix()[name];
    const res = await t.graphql(bob.key, call.query, call.variables);
    const value = res.body.data?.[call.field] ?? null;
    expect(value).toBeNull();
    for (const error of res.body.errors ?? []) expect(error.extensions.code).toBe('not_found');
  });

  it.each(names(ENTITY_TYPES()))('GraphQL _entities %s → null', async (typename) => {
    const id = ENTITY_TYPES()[typename as keyof ReturnType<typeof ENTITY_TYPES>];
    const res = await t.graphql(bob.key, 'query($r: [_Any!]!) { _entities(representations: $r) { __typename } }', { r: [{ __typename: typename, id }] });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data._entities).toEqual([null]);
  });

  it('lists never show alice’s items to bob', async () => {
    const aliceIds = new Set([String(alice.projectId), alice.assetId, spareAssetId, alice.system.id, alice.customers[0].id]);
    const rest = await Promise.all(['/projects?limit=100', '/assets?limit=100', '/wallets/customer?limit=100', '/wallets/system?limit=100'].map((path) => t.request('GET', path, { key: bob.key })));
    for (const res of rest) {
      expect(res.status).toBe(200);
      const items = res.body.projects ?? res.body.assets ?? res.body.wallets;
      expect(items.length).toBeGreaterThan(0); // bob's own are there …
      expect(items.filter((item: { id: unknown }) => aliceIds.has(String(item.id)))).toEqual([]); // … alice's never
      for (const item of items) if ('transactions' in item) expect(item.transactions.filter((tx: { id: string }) => tx.id === aliceTxId)).toEqual([]);
    }
    const gql = await t.graphql(
      bob.key,
      '{ projects(first: 20) { edges { node { id wallets(first: 20) { edges { node { id } } } assets(first: 20) { edges { node { id } } } } } } assets(first: 20) { edges { node { id } } } }',
    );
    expect(gql.body.errors).toBeUndefined();
    const seen = JSON.stringify(gql.body.data);
    for (const id of aliceIds) expect(seen).not.toContain(`"id":"${id}"`);
    expect(seen).toContain(`"id":"${bob.projectId}"`);
    const plan = await t.request('GET', '/user/plan', { key: bob.key });
    expect(plan.body.user_id).toBe('tenancy-bob');
  });

  it('changed nothing of alice’s (and recorded no event on her project)', async () => {
    expect(await aliceRows()).toEqual(before);
  });
});

// Runs after the matrix (same file, declaration order): alice's own calls succeed.
describe('tenancy matrix control: alice on her own resources', () => {
  it.each(names(restMatrix()).filter((name) => name !== 'DELETE /assets/{id}'))('REST %s → 2xx', async (name) => {
    const call = restMatrix()[name];
    const res = await t.request(call.method, call.path, { key: alice.key, body: call.body });
    expect([res.status, res.body?.code]).toEqual([expect.any(Number), undefined]);
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(300);
  });

  it.each(names(graphqlMatrix()))('GraphQL %s → data', async (name) => {
    const call = graphqlMatrix()[name];
    const res = await t.graphql(alice.key, call.query, call.variables);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data[call.field]).not.toBeNull();
  });

  it('REST DELETE /assets/{id} → 200 (after the GraphQL deleteAsset above, a fresh spare asset)', async () => {
    const spare = await t.request('POST', '/assets', { key: alice.key, body: { name: 'Spare 2', symbol: 'SPARE2', fractions: 0, projectId: alice.projectId } });
    const res = await t.request('DELETE', `/assets/${spare.body.id}`, { key: alice.key });
    expect(res.status).toBe(200);
  });

  it.each(names(ENTITY_TYPES()))('GraphQL _entities %s → the entity', async (typename) => {
    const id = ENTITY_TYPES()[typename as keyof ReturnType<typeof ENTITY_TYPES>];
    const res = await t.graphql(alice.key, 'query($r: [_Any!]!) { _entities(representations: $r) { __typename } }', { r: [{ __typename: typename, id }] });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data._entities).toEqual([{ __typename: typename }]);
  });
});
