import { expectStatus, fundedProject, transfer, UNKNOWN_UUID, type FundedProject } from '../../support/fixtures.js';
import type { HttpResult, TestApp } from '../../support/test-app.js';
import { startTestApp } from '../../support/test-app.js';
import {
  CreateAssetDocument,
  CreateProjectDocument,
  CreateWalletDocument,
  DeleteAssetDocument,
  HistoryDocument,
  RenameProjectDocument,
  SeedDocument,
  SetWalletStatusDocument,
  TransferDocument,
  UpdateAssetDocument,
  WebhookDocument,
} from '../generated/graphql.js';
import { data, run, type GraphQLResult } from '../support/client.js';

let t: TestApp;
let key: string;
let p: FundedProject;

beforeAll(async () => {
  t = await startTestApp();
  key = await t.issueKey('mutations', 'enterprise');
  p = await fundedProject(t, key, { customers: 3, systemBalance: 1000 });
});
afterAll(() => t.close());

/** The refusal as REST answers it and as GraphQL answers it: same code, same details. */
const restRefusal = (res: HttpResult) => ({ code: res.body.code, details: res.body.details });
function gqlRefusal(res: GraphQLResult<unknown>) {
  expect(res.body.errors).toHaveLength(1);
  const [error] = res.body.errors!;
  return { code: error.extensions.code, details: error.extensions.details };
}

const balanceOf = async (walletId: string): Promise<number> =>
  (await expectStatus(t.request('GET', `/transactions?walletId=${walletId}&limit=1`, { key }), 200)).balance.balance;

describe('effects: the same service calls as REST', () => {
  it('createProject, createAsset, createWallet: readable through REST as created', async () => {
    const { createProject } = await data(t, key, CreateProjectDocument, { input: { name: '  Shop  ', metadata: { tier: 'gold' } } });
    const rest = await expectStatus(t.request('GET', `/projects/${createProject.id}`, { key }), 200);
    expect(rest).toMatchObject({ name: 'Shop', type: 'loyalty', exchangeRate: 1, supportExchangeRate: false, metadata: { tier: 'gold' }, asset_id: null, owner: 'mutations' });

    const { createAsset } = await data(t, key, CreateAssetDocument, { input: { projectId: createProject.id, name: 'Coins', symbol: 'COIN', fractions: 2 } });
    expect((await expectStatus(t.request('GET', `/projects/${createProject.id}`, { key }), 200)).asset_id).toBe(createAsset.id); // first asset: primary

    const { createWallet } = await data(t, key, CreateWalletDocument, { type: 'SYSTEM', input: { projectId: createProject.id, address: 'treasury' } });
    expect(await expectStatus(t.request('GET', `/wallets/${createWallet.id}`, { key }), 200)).toMatchObject({ address: 'treasury', type: 'system', status: 'active' });

    const { renameProject } = await data(t, key, RenameProjectDocument, { id: createProject.id, name: 'Shop 2' });
    expect(renameProject.name).toBe('Shop 2');
    const { updateAsset } = await data(t, key, UpdateAssetDocument, { id: createAsset.id, input: { projectId: createProject.id, symbol: 'CN' } });
    expect(updateAsset.symbol).toBe('CN');
    const { deleteAsset } = await data(t, key, DeleteAssetDocument, { id: createAsset.id });
    expect(deleteAsset).toEqual({ id: createAsset.id, deleted: true });
    expect((await expectStatus(t.request('GET', `/projects/${createProject.id}`, { key }), 200)).asset_id).toBeNull();
  });

  it('seed and transfer move money exactly as POST /transactions/seed and POST /transactions', async () => {
    const { seed } = await data(t, key, SeedDocument, { input: { projectId: String(p.projectId), currency: 'PTS', to: p.system.address, amount: '250.5' } });
    expect(seed).toMatchObject({ amount: '250.5', currency: 'PTS', from: '@mint', to: p.system.address, balance: '1250.5' });
    const before = await balanceOf(p.customers[0].id);
    const { transfer: tx } = await data(t, key, TransferDocument, {
      input: { projectId: String(p.projectId), currency: 'PTS', from: p.system.id, to: p.customers[0].address, amount: 12.25 },
    });
    expect(tx).toMatchObject({ amount: '12.25', from: p.system.address, to: p.customers[0].address, balance: '1238.25', fromWallet: { id: p.system.id }, toWallet: { id: p.customers[0].id } });
    expect(await balanceOf(p.customers[0].id)).toBe(before + 12.25);
    const history = await expectStatus(t.request('GET', `/transactions?walletId=${p.system.id}&limit=1`, { key }), 200);
    expect(history.transactions[0]).toEqual({ id: tx.id, amount: 12.25, currency: 'PTS', from: tx.from, to: tx.to, date: tx.date, balance: 1238.25, reverses: null, reversedAmount: 0, reference: null, metadata: {} });
  });

  it('setWalletStatus suspends and reactivates', async () => {
    const input = { projectId: String(p.projectId), status: 'SUSPENDED' as const };
    expect((await data(t, key, SetWalletStatusDocument, { id: p.customers[2].id, input })).setWalletStatus.status).toBe('SUSPENDED');
    expect((await expectStatus(t.request('GET', `/wallets/${p.customers[2].id}`, { key }), 200)).status).toBe('suspended');
    expect((await data(t, key, SetWalletStatusDocument, { id: p.customers[2].id, input: { ...input, status: 'ACTIVE' } })).setWalletStatus.status).toBe('ACTIVE');
  });

  it('webhook reward posts a transfer and is listed', async () => {
    const before = await balanceOf(p.customers[1].id);
    const { webhook } = await data(t, key, WebhookDocument, { input: { flowId: 'reward', projectId: String(p.projectId), values: { to: p.customers[1].id, amount: 2 } } });
    expect(webhook.success).toBe(true);
    expect(await balanceOf(p.customers[1].id)).toBe(before + 2);
  });
});

describe('refusals: the same code and details as REST', () => {
  let other: FundedProject;
  let otherKey: string;
  beforeAll(async () => {
    otherKey = await t.issueKey('mutations-other', 'enterprise');
    other = await fundedProject(t, otherKey, { customers: 1 });
  });

  const transferBody = (overrides: Record<string, unknown>) => ({ amount: 1, currency: 'PTS', from: p.customers[0].id, to: p.customers[1].id, projectId: p.projectId, ...overrides });
  async function compareTransfer(overrides: Record<string, unknown>) {
    const body = transferBody(overrides);
    const rest = await t.request('POST', '/transactions', { key, body });
    const gql = await run(t, key, TransferDocument, { input: { ...body, projectId: String(body.projectId) } as never });
    expect(gqlRefusal(gql)).toEqual(restRefusal(rest));
    return restRefusal(rest);
  }

  it('insufficient_funds', async () => {
    expect((await compareTransfer({ amount: 1_000_000 })).code).toBe('insufficient_funds');
  });

  it('validation_error: more decimals than the asset has', async () => {
    expect(await compareTransfer({ amount: 1.005 })).toMatchObject({ code: 'validation_error', details: { field: 'amount' } });
  });

  it('validation_error: from and to are the same wallet', async () => {
    expect((await compareTransfer({ to: p.customers[0].address })).code).toBe('validation_error');
  });

  it('not_found: an unknown wallet, an unknown currency, another owner\'s project', async () => {
    expect((await compareTransfer({ to: UNKNOWN_UUID })).code).toBe('not_found');
    expect((await compareTransfer({ currency: 'NOPE' })).code).toBe('not_found');
    expect((await compareTransfer({ projectId: other.projectId, from: other.system.id, to: other.customers[0].id })).code).toBe('not_found');
  });

  it('wallet_inactive', async () => {
    await expectStatus(t.request('PUT', `/wallets/status/${p.customers[1].id}`, { key, body: { projectId: p.projectId, status: 'suspended' } }), 200);
    try {
      expect((await compareTransfer({ from: p.system.id })).code).toBe('wallet_inactive');
    } finally {
      await expectStatus(t.request('PUT', `/wallets/status/${p.customers[1].id}`, { key, body: { projectId: p.projectId, status: 'active' } }), 200);
    }
  });

  it('seed into a customer wallet: validation_error', async () => {
    const body = { amount: 5, currency: 'PTS', projectId: p.projectId, to: p.customers[0].id };
    const rest = await t.request('POST', '/transactions/seed', { key, body });
    const gql = await run(t, key, SeedDocument, { input: { ...body, projectId: String(p.projectId) } });
    expect(gqlRefusal(gql)).toEqual(restRefusal(rest));
    expect(restRefusal(rest)).toMatchObject({ code: 'validation_error', details: { field: 'to' } });
  });

  it('conflict: a duplicate symbol, a duplicate address', async () => {
    const asset = { name: 'Again', symbol: 'PTS', fractions: 2, projectId: p.projectId };
    const restAsset = await t.request('POST', '/assets', { key, body: asset });
    const gqlAsset = await run(t, key, CreateAssetDocument, { input: { ...asset, projectId: String(p.projectId) } });
    expect(gqlRefusal(gqlAsset)).toEqual(restRefusal(restAsset));
    expect(restRefusal(restAsset).code).toBe('conflict');

    const wallet = { projectId: p.projectId, address: p.customers[0].address };
    const restWallet = await t.request('POST', '/wallets/create/customer', { key, body: wallet });
    const gqlWallet = await run(t, key, CreateWalletDocument, { type: 'CUSTOMER', input: { ...wallet, projectId: String(p.projectId) } });
    expect(gqlRefusal(gqlWallet)).toEqual(restRefusal(restWallet));
    expect(restRefusal(restWallet).code).toBe('conflict');
  });

  it('wallet_not_empty, asset_in_use', async () => {
    const closing = { projectId: p.projectId, status: 'closed' };
    const rest = await t.request('PUT', `/wallets/status/${p.system.id}`, { key, body: closing });
    const gql = await run(t, key, SetWalletStatusDocument, { id: p.system.id, input: { projectId: String(p.projectId), status: 'CLOSED' } });
    expect(gqlRefusal(gql)).toEqual(restRefusal(rest));
    expect(restRefusal(rest).code).toBe('wallet_not_empty');

    const restDelete = await t.request('DELETE', `/assets/${p.assetId}`, { key });
    const gqlDelete = await run(t, key, DeleteAssetDocument, { id: p.assetId });
    expect(gqlRefusal(gqlDelete)).toEqual(restRefusal(restDelete));
    expect(restRefusal(restDelete).code).toBe('asset_in_use');
  });

  it('updateAsset without projectId renames, as PUT /assets/{id} does; another owner cannot', async () => {
    const { updateAsset } = await data(t, key, UpdateAssetDocument, { id: p.assetId, input: { name: 'Renamed without project' } });
    expect(updateAsset).toMatchObject({ id: p.assetId, name: 'Renamed without project', projectId: String(p.projectId) });
    const rest = await t.request('PUT', `/assets/${p.assetId}`, { key: otherKey, body: { name: 'x' } });
    const gql = await run(t, otherKey, UpdateAssetDocument, { id: p.assetId, input: { name: 'x' } });
    expect(gqlRefusal(gql)).toEqual(restRefusal(rest));
    expect(restRefusal(rest).code).toBe('not_found');
  });

  it("not_found: updating an asset through another project, renaming another owner's project", async () => {
    const rest = await t.request('PUT', `/assets/${p.assetId}`, { key, body: { projectId: other.projectId, name: 'x' } });
    const gql = await run(t, key, UpdateAssetDocument, { id: p.assetId, input: { projectId: String(other.projectId), name: 'x' } });
    expect(gqlRefusal(gql)).toEqual(restRefusal(rest));
    expect(restRefusal(rest).code).toBe('not_found');

    const restRename = await t.request('PUT', `/projects/${other.projectId}`, { key, body: { name: 'mine' } });
    const gqlRename = await run(t, key, RenameProjectDocument, { id: String(other.projectId), name: 'mine' });
    expect(gqlRefusal(gqlRename)).toEqual(restRefusal(restRename));
    expect(restRefusal(restRename).code).toBe('not_found');
  });

  it('validation_error: an empty project name', async () => {
    const rest = await t.request('POST', '/projects', { key, body: { name: '   ' } });
    const gql = await run(t, key, CreateProjectDocument, { input: { name: '   ' } });
    expect(gqlRefusal(gql)).toEqual(restRefusal(rest));
    expect(restRefusal(rest)).toMatchObject({ code: 'validation_error', details: { field: 'name' } });
  });

  it('quota_exceeded: a second project on the free plan', async () => {
    const freeKey = await t.issueKey('mutations-free', 'free');
    await expectStatus(t.request('POST', '/projects', { key: freeKey, body: { name: 'one' } }), 201);
    const rest = await t.request('POST', '/projects', { key: freeKey, body: { name: 'two' } });
    const gql = await run(t, freeKey, CreateProjectDocument, { input: { name: 'two' } });
    expect(gqlRefusal(gql)).toEqual(restRefusal(rest));
    expect(restRefusal(rest)).toEqual({ code: 'quota_exceeded', details: { quota: 'projects', limit: 1 } });
  });

  it('webhook: a flow that cannot run answers as the transfer would', async () => {
    const body = { flowId: 'redeem', projectId: p.projectId, values: { from: p.customers[2].id, amount: 1_000_000 } };
    const rest = await t.request('POST', '/webhook', { key, body });
    const gql = await run(t, key, WebhookDocument, { input: { ...body, projectId: String(p.projectId) } });
    expect(gqlRefusal(gql)).toEqual(restRefusal(rest));
    expect(restRefusal(rest).code).toBe('insufficient_funds');
  });

  it('keeps the rest of the operation: a refused mutation field is null with its error path', async () => {
    const gql = await run(t, key, TransferDocument, { input: { ...transferBody({ amount: 1_000_000 }), projectId: String(p.projectId) } as never });
    expect(gql.status).toBe(200);
    expect(gql.body.data).toBeNull();
    expect(gql.body.errors![0].path).toEqual(['transfer']);
  });
});

describe('idempotencyKey: the REST idempotency store', () => {
  const input = () => ({ projectId: String(p.projectId), currency: 'PTS', from: p.system.id, to: p.customers[0].id, amount: '3' });

  it('replays the first result and posts nothing again', async () => {
    const before = await balanceOf(p.customers[0].id);
    const first = await data(t, key, TransferDocument, { input: input(), idempotencyKey: 'gql-transfer-1' });
    const again = await data(t, key, TransferDocument, { input: input(), idempotencyKey: 'gql-transfer-1' });
    expect(again).toEqual(first);
    expect(await balanceOf(p.customers[0].id)).toBe(before + 3);
    const history = await data(t, key, HistoryDocument, { walletId: p.customers[0].id, first: 5 });
    expect(history.transactions!.edges.filter((e) => e.node.id === first.transfer.id)).toHaveLength(1);
  });

  it('refuses the same key with other arguments: idempotency_key_reuse', async () => {
    await data(t, key, TransferDocument, { input: input(), idempotencyKey: 'gql-transfer-2' });
    const reuse = await run(t, key, TransferDocument, { input: { ...input(), amount: '4' }, idempotencyKey: 'gql-transfer-2' });
    expect(gqlRefusal(reuse)).toEqual({ code: 'idempotency_key_reuse', details: { key: 'gql-transfer-2' } });
  });

  it('replays a refusal: insufficient_funds stays refused after the wallet is funded', async () => {
    const poor = { ...input(), from: p.customers[2].id, to: p.customers[1].id, amount: '500' };
    const first = await run(t, key, TransferDocument, { input: poor, idempotencyKey: 'gql-poor' });
    expect(gqlRefusal(first).code).toBe('insufficient_funds');
    await transfer(t, p, p.system.id, p.customers[2].id, 600);
    const again = await run(t, key, TransferDocument, { input: poor, idempotencyKey: 'gql-poor' });
    expect(gqlRefusal(again).code).toBe('insufficient_funds');
  });

  it('does not store a validation_error: the corrected request may reuse the key', async () => {
    const bad = await run(t, key, CreateWalletDocument, { type: 'CUSTOMER', input: { projectId: String(p.projectId), address: '@reserved' }, idempotencyKey: 'gql-wallet' });
    expect(gqlRefusal(bad).code).toBe('validation_error');
    const created = await data(t, key, CreateWalletDocument, { type: 'CUSTOMER', input: { projectId: String(p.projectId), address: 'fixed' }, idempotencyKey: 'gql-wallet' });
    const replayed = await data(t, key, CreateWalletDocument, { type: 'CUSTOMER', input: { projectId: String(p.projectId), address: 'fixed' }, idempotencyKey: 'gql-wallet' });
    expect(replayed.createWallet.id).toBe(created.createWallet.id);
  });

  it('shares the store with REST: a key used by a REST request is another request for a mutation', async () => {
    await expectStatus(
      t.request('POST', '/transactions', { key, body: { ...input(), projectId: p.projectId, amount: 3 }, headers: { 'idempotency-key': 'shared-key' } }),
      201,
    );
    const gql = await run(t, key, TransferDocument, { input: input(), idempotencyKey: 'shared-key' });
    expect(gqlRefusal(gql).code).toBe('idempotency_key_reuse');
  });

  it('an Idempotency-Key header on POST /graphql replays the whole answer, as for any POST', async () => {
    const body = { query: 'mutation($i: TransferInput!) { transfer(input: $i) { id amount date } }', variables: { i: input() } };
    const first = await t.request('POST', '/graphql', { key, body, headers: { 'idempotency-key': 'http-level' } });
    const again = await t.request('POST', '/graphql', { key, body, headers: { 'idempotency-key': 'http-level' } });
    expect(first.body.data.transfer.amount).toBe('3');
    expect(again.body).toEqual(first.body);
    expect(Object.keys(again.body.data.transfer)).toEqual(['id', 'amount', 'date']); // the selection's order, as the first answer
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('refuses a key longer than 255 characters', async () => {
    const gql = await run(t, key, TransferDocument, { input: input(), idempotencyKey: 'k'.repeat(256) });
    expect(gqlRefusal(gql)).toMatchObject({ code: 'validation_error', details: { field: 'idempotencyKey' } });
  });
});

describe('amounts the double would alter (17 significant digits) land exactly', () => {
  const AMOUNT = '82241598.62827704'; // the double is 82241598.62827703
  let x: FundedProject;
  const minorOf = async (walletId: string): Promise<bigint> => {
    const [row] = await t.db.query<{ amount: string }>(`SELECT amount::text FROM balances WHERE wallet_id = $1`, [walletId]);
    return BigInt(row?.amount ?? 0);
  };
  /** A /graphql body whose `@N@` placeholder becomes the number text, verbatim (JSON.stringify would round it). */
  const post = (body: Record<string, unknown>) => t.request('POST', '/graphql', { key, raw: JSON.stringify(body).replace('"@N@"', AMOUNT) });

  beforeAll(async () => {
    x = await fundedProject(t, key, { name: 'Exact', symbol: 'EXA', fractions: 8, customers: 2, systemBalance: '0' });
    // seeded twice over GraphQL: once as a literal, once as a variable
    const literal = await post({
      query: `mutation { seed(input: { projectId: "${x.projectId}", currency: "EXA", to: "${x.system.id}", amount: ${AMOUNT} }) { amount } }`,
    });
    expect(literal.body.errors).toBeUndefined();
    expect(literal.body.data.seed.amount).toBe(AMOUNT);
    const variable = await post({
      query: 'mutation($i: SeedInput!) { seed(input: $i) { amount } }',
      variables: { i: { projectId: String(x.projectId), currency: 'EXA', to: x.system.id, amount: '@N@' } },
    });
    expect(variable.body.errors).toBeUndefined();
    expect(variable.body.data.seed.amount).toBe(AMOUNT);
    expect(await minorOf(x.system.id)).toBe(2n * 8224159862827704n);
  });

  it('transfer with the amount as a literal', async () => {
    const res = await post({
      query: `mutation { transfer(input: { projectId: "${x.projectId}", currency: "EXA", from: "${x.system.id}", to: "${x.customers[0].id}", amount: ${AMOUNT} }) { amount } }`,
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.transfer.amount).toBe(AMOUNT);
    expect(await minorOf(x.customers[0].id)).toBe(8224159862827704n);
  });

  it('transfer with the amount in a variable (a JSON number)', async () => {
    const res = await post({
      query: 'mutation($i: TransferInput!) { transfer(input: $i) { amount } }',
      variables: { i: { projectId: String(x.projectId), currency: 'EXA', from: x.system.id, to: x.customers[1].id, amount: '@N@' } },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.transfer.amount).toBe(AMOUNT);
    expect(await minorOf(x.customers[1].id)).toBe(8224159862827704n);
    expect(await minorOf(x.system.id)).toBe(0n);
  });

  it('a literal in exponent form is read exactly too', async () => {
    const res = await post({
      query: `mutation { transfer(input: { projectId: "${x.projectId}", currency: "EXA", from: "${x.customers[1].id}", to: "${x.customers[0].id}", amount: 8.224159862827704e7 }) { amount } }`,
    });
    expect(res.body.errors).toBeUndefined();
    expect(await minorOf(x.customers[0].id)).toBe(2n * 8224159862827704n);
  });

  it('webhook values: exact in a variable; refused, never rounded, in a literal', async () => {
    const before = await minorOf(x.customers[0].id);
    const variable = await post({
      query: 'mutation($i: WebhookInput!) { webhook(input: $i) { success } }',
      variables: { i: { flowId: 'redeem', projectId: String(x.projectId), values: { from: x.customers[0].id, to: x.system.id, amount: '@N@' } } },
    });
    expect(variable.body.errors).toBeUndefined();
    expect(await minorOf(x.customers[0].id)).toBe(before - 8224159862827704n);

    const literal = await post({
      query: `mutation { webhook(input: { flowId: "redeem", projectId: "${x.projectId}", values: { from: "${x.customers[0].id}", to: "${x.system.id}", amount: ${AMOUNT} } }) { success } }`,
    });
    expect(literal.body.errors).toHaveLength(1);
    expect(literal.body.errors[0].extensions.code).toBe('validation_error');
    expect(await minorOf(x.customers[0].id)).toBe(before - 8224159862827704n);
  });

  it('refuses an exact amount with more decimals than the asset has, as REST does', async () => {
    const res = await t.request('POST', '/graphql', {
      key,
      raw: JSON.stringify({
        query: 'mutation($i: TransferInput!) { transfer(input: $i) { amount } }',
        variables: { i: { projectId: String(x.projectId), currency: 'EXA', from: x.customers[0].id, to: x.customers[1].id, amount: '@N@' } },
      }).replace('"@N@"', '0.000000010000000001'),
    });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'validation_error', details: { field: 'amount' } });
  });
});
