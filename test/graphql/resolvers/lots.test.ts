import { expectStatus, fundedProject, transfer, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { raw } from '../support/client.js';

/** Points that expire over GraphQL (CONTRACT §15): Asset.expiresAfterSeconds, createAsset/updateAsset, Balance.expiring. */
let t: TestApp;
let key: string;
let otherKey: string;
beforeAll(async () => {
  t = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 500 } });
  key = await t.issueKey('gql-lots', 'enterprise');
  otherKey = await t.issueKey('gql-lots-other', 'pro');
});
afterAll(() => t.close());

const UPDATE = `mutation($id: ID!, $input: UpdateAssetInput!) { updateAsset(id: $id, input: $input) { id name expiresAfterSeconds } }`;
const EXPIRING = `query($id: ID!, $first: Int) { wallet(id: $id) { balances { currency expiring(first: $first) { amount remaining expiresAt createdAt } } } }`;
const EXPIRING_DEFAULT = `query($id: ID!) { wallet(id: $id) { balances { expiring { amount } } } }`;

describe('Asset.expiresAfterSeconds', () => {
  it('createAsset takes it (absent or null: never)', async () => {
    const project = await expectStatus(t.request('POST', '/projects', { key, body: { name: 'gql expiry' } }), 201);
    const create = `mutation($input: CreateAssetInput!) { createAsset(input: $input) { symbol expiresAfterSeconds } }`;
    const set = await raw(t, key, create, { input: { projectId: String(project.id), name: 'P', symbol: 'P1', fractions: 0, expiresAfterSeconds: 90 } });
    expect(set.body).toEqual({ data: { createAsset: { symbol: 'P1', expiresAfterSeconds: 90 } } });
    const none = await raw(t, key, create, { input: { projectId: String(project.id), name: 'P', symbol: 'P2', fractions: 0, expiresAfterSeconds: null } });
    expect(none.body.data.createAsset.expiresAfterSeconds).toBeNull();
    const bad = await raw(t, key, create, { input: { projectId: String(project.id), name: 'P', symbol: 'P3', fractions: 0, expiresAfterSeconds: 0 } });
    expect(bad.body.errors![0].extensions).toMatchObject({ code: 'validation_error', details: { field: 'expiresAfterSeconds' } });
  });

  it('updateAsset: alone, without projectId; absent leaves it, an explicit null turns expiry off', async () => {
    const f = await fundedProject(t, key, { customers: 0, systemBalance: '0' });
    expect((await raw(t, key, UPDATE, { id: f.assetId, input: { expiresAfterSeconds: 60 } })).body.data.updateAsset).toMatchObject({ expiresAfterSeconds: 60 });
    expect((await raw(t, key, UPDATE, { id: f.assetId, input: { name: 'Renamed' } })).body.data.updateAsset).toEqual({ id: f.assetId, name: 'Renamed', expiresAfterSeconds: 60 });
    expect((await raw(t, key, UPDATE, { id: f.assetId, input: { expiresAfterSeconds: null } })).body.data.updateAsset.expiresAfterSeconds).toBeNull();
    const literal = `mutation { updateAsset(id: "${f.assetId}", input: { expiresAfterSeconds: 5 }) { expiresAfterSeconds } }`;
    expect((await raw(t, key, literal)).body.data.updateAsset.expiresAfterSeconds).toBe(5);
    const empty = await raw(t, key, UPDATE, { id: f.assetId, input: {} });
    expect(empty.body.errors![0].extensions.code).toBe('validation_error');
    const foreign = await raw(t, otherKey, UPDATE, { id: f.assetId, input: { expiresAfterSeconds: 1 } });
    expect(foreign.body.errors![0].extensions.code).toBe('not_found');
  });
});

describe('Balance.expiring(first)', () => {
  let f: FundedProject;
  beforeAll(async () => {
    f = await fundedProject(t, key, { customers: 1, systemBalance: '1000' });
    await expectStatus(t.request('PUT', `/assets/${f.assetId}`, { key, body: { expiresAfterSeconds: 3600 } }), 200);
    for (let i = 1; i <= 12; i++) await transfer(t, f, f.system.id, f.customers[0].id, i / 100);
  });

  it('lists the live lots earliest expiry first, as GET /wallets/{id}/lots does', async () => {
    const res = await raw(t, key, EXPIRING, { id: f.customers[0].id, first: 3 });
    const rest = await expectStatus(t.request('GET', `/wallets/${f.customers[0].id}/lots`, { key }), 200);
    expect(res.body.data.wallet.balances[0].expiring).toEqual(
      rest.lots.slice(0, 3).map((l: any) => ({ amount: String(l.amount), remaining: String(l.remaining), expiresAt: l.expires_at, createdAt: l.created_at })),
    );
    expect(res.body.data.wallet.balances[0].expiring.map((l: any) => l.amount)).toEqual(['0.01', '0.02', '0.03']);
  });

  it('first defaults to 10 (null too), 0 gives none, over 100 is refused', async () => {
    expect((await raw(t, key, EXPIRING_DEFAULT, { id: f.customers[0].id })).body.data.wallet.balances[0].expiring).toHaveLength(10);
    expect((await raw(t, key, EXPIRING, { id: f.customers[0].id, first: null })).body.data.wallet.balances[0].expiring).toHaveLength(10);
    expect((await raw(t, key, EXPIRING, { id: f.customers[0].id, first: 0 })).body.data.wallet.balances[0].expiring).toEqual([]);
    const over = await raw(t, key, EXPIRING, { id: f.customers[0].id, first: 101 });
    expect(over.body.errors![0].extensions).toMatchObject({ code: 'validation_error', details: { field: 'first' } });
  });

  it('is empty for a system wallet; the history balance has it too; many wallets cost one lots statement', async () => {
    expect((await raw(t, key, EXPIRING, { id: f.system.id, first: 5 })).body.data.wallet.balances[0].expiring).toEqual([]);
    const history = await raw(t, key, `query($w: String!) { transactions(walletId: $w) { balance { expiring(first: 1) { amount } } } }`, { w: f.customers[0].id });
    expect(history.body.data.transactions.balance.expiring).toEqual([{ amount: '0.01' }]);
    const many = await raw(t, key, `query($p: ID!) { wallets(projectId: $p) { edges { node { balances { expiring(first: 2) { amount } } } } } }`, { p: String(f.projectId) });
    const lists = many.body.data.wallets.edges.map((e: any) => e.node.balances[0].expiring.map((l: any) => l.amount));
    expect(lists).toEqual([[], ['0.01', '0.02']]);
  });
});
