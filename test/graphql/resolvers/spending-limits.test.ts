import { startTestApp, type TestApp } from '../../support/test-app.js';
import { fundedProject, type FundedProject } from '../../support/fixtures.js';

/** Spending and earning limits over GraphQL (CONTRACT §19): the same service and refusals as REST (extensions.code). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const gql = async (e: FundedProject, query: string, variables: Record<string, unknown> = {}) => (await t.graphql(e.key, query, variables)).body;
const CREATE = `mutation($p: ID!, $c: String!, $d: LimitDirection!, $a: Decimal!, $w: Int!, $wallet: String) {
  createLimit(projectId: $p, currency: $c, direction: $d, amount: $a, windowSeconds: $w, walletId: $wallet) { id projectId walletId currency direction amount windowSeconds createdAt } }`;
const create = (e: FundedProject, d: 'DEBIT' | 'CREDIT', a: string, extra: Record<string, unknown> = {}) =>
  gql(e, CREATE, { p: String(e.projectId), c: e.symbol, d, a, w: 3600, ...extra });
const TRANSFER = `mutation($i: TransferInput!, $dry: Boolean) { transfer(input: $i, dryRun: $dry) { id amount } }`;
const transfer = (e: FundedProject, from: string, to: string, amount: string, dryRun = false) =>
  gql(e, TRANSFER, { i: { projectId: String(e.projectId), currency: e.symbol, from, to, amount }, dry: dryRun });

describe('limits over GraphQL', () => {
  it('creates, lists, shows Wallet.limits with used and remaining, and deletes', async () => {
    const e = await fundedProject(t, { owner: 'gql-limits' }, { fund: 100 });
    const [a] = e.customers;
    const made = await create(e, 'DEBIT', '10');
    expect(made.errors).toBeUndefined();
    const limit = made.data.createLimit;
    expect(limit).toMatchObject({ walletId: null, currency: 'PTS', direction: 'DEBIT', amount: '10', windowSeconds: 3600 });
    const own = (await create(e, 'CREDIT', '2.5', { wallet: e.system.address })).data.createLimit;
    expect(own.walletId).toBe(e.system.id);
    expect((await transfer(e, a.id, e.customers[1].id, '3.5')).errors).toBeUndefined();
    const read = await gql(e, `query($p: ID!, $w: ID!) {
      limits(projectId: $p, first: 1) { totalCount edges { node { id } } pageInfo { hasNextPage endCursor } }
      wallet(id: $w) { limits { id direction amount used remaining } } }`, { p: String(e.projectId), w: a.id });
    expect(read.errors).toBeUndefined();
    expect(read.data.limits).toMatchObject({ totalCount: 2, edges: [{ node: { id: limit.id } }], pageInfo: { hasNextPage: true } });
    expect(read.data.wallet.limits).toEqual([{ id: limit.id, direction: 'DEBIT', amount: '10', used: '3.5', remaining: '6.5' }]);
    const next = await gql(e, `query($p: ID!, $after: String) { limits(projectId: $p, first: 5, after: $after) { edges { node { id } } } }`, { p: String(e.projectId), after: read.data.limits.pageInfo.endCursor });
    expect(next.data.limits.edges).toEqual([{ node: { id: own.id } }]);
    const deleted = await gql(e, `mutation($id: ID!) { deleteLimit(id: $id) { id deleted } }`, { id: limit.id });
    expect(deleted.data.deleteLimit).toEqual({ id: limit.id, deleted: true });
    expect((await gql(e, `mutation($id: ID!) { deleteLimit(id: $id) { id } }`, { id: limit.id })).errors[0].extensions.code).toBe('not_found');
  });

  it('refuses bad input, a stranger’s project and the 51st limit with the REST codes', async () => {
    const e = await fundedProject(t, { owner: 'gql-limits-refusals' }, { customers: 0, systemBalance: 0 });
    const stranger = await fundedProject(t, { owner: 'gql-limits-stranger' }, { customers: 0, systemBalance: 0 });
    expect((await create(e, 'DEBIT', '10', { w: 59 })).errors[0].extensions).toMatchObject({ code: 'validation_error', details: { field: 'windowSeconds' } });
    expect((await create(e, 'DEBIT', '0')).errors[0].extensions.code).toBe('validation_error');
    expect((await create(e, 'DEBIT', '1', { c: 'NOPE' })).errors[0].extensions.code).toBe('not_found');
    expect((await create(e, 'DEBIT', '1', { p: String(stranger.projectId) })).errors[0].extensions.code).toBe('not_found');
    expect((await gql(e, `{ limits(projectId: "${stranger.projectId}") { totalCount } }`)).errors[0].extensions.code).toBe('not_found');
    for (let i = 0; i < 50; i++) expect((await create(e, 'CREDIT', String(i + 1))).errors).toBeUndefined();
    expect((await create(e, 'DEBIT', '1')).errors[0].extensions).toMatchObject({ code: 'quota_exceeded', details: { quota: 'limits', limit: 50 } });
  });

  it('refuses transfers, batch legs, seeds, holds and captures with limit_exceeded; a dry run too', async () => {
    const e = await fundedProject(t, { owner: 'gql-limits-postings' }, { customers: 3 });
    const [a, b, c] = e.customers;
    expect((await transfer(e, e.system.id, a.id, '100')).errors).toBeUndefined();
    const debit = (await create(e, 'DEBIT', '10')).data.createLimit;
    const seedLimit = (await create(e, 'CREDIT', '1000', { wallet: e.system.id })).data.createLimit;
    const refused = await transfer(e, a.id, b.id, '10.01');
    expect(refused.errors[0].extensions).toEqual({ code: 'limit_exceeded', details: { limitId: debit.id, remaining: 10 } });
    expect((await transfer(e, a.id, b.id, '10.01', true)).errors[0].extensions.code).toBe('limit_exceeded');
    const batch = await gql(e, `mutation($p: ID!, $legs: [BatchTransferInput!]!) { transferBatch(projectId: $p, transfers: $legs) { id } }`, {
      p: String(e.projectId),
      legs: [6, 6].map((amount) => ({ amount, currency: e.symbol, from: a.id, to: b.id })),
    });
    expect(batch.errors[0].extensions).toEqual({ code: 'limit_exceeded', details: { index: 1, limitId: debit.id, remaining: 4 } });
    const seed = await gql(e, `mutation($i: SeedInput!) { seed(input: $i) { id } }`, { i: { projectId: String(e.projectId), currency: e.symbol, to: e.system.id, amount: 1 } });
    expect(seed.errors[0].extensions).toMatchObject({ code: 'limit_exceeded', details: { limitId: seedLimit.id, remaining: 0 } });
    const HOLD = `mutation($p: ID!, $from: String!, $to: String!, $amount: Decimal!) { createHold(projectId: $p, currency: "PTS", from: $from, to: $to, amount: $amount) { id } }`;
    const held = await gql(e, HOLD, { p: String(e.projectId), from: a.id, to: c.id, amount: '8' });
    expect(held.errors).toBeUndefined();
    expect((await gql(e, HOLD, { p: String(e.projectId), from: a.id, to: c.id, amount: '3' })).errors[0].extensions).toEqual({ code: 'limit_exceeded', details: { limitId: debit.id, remaining: 2 } });
    const credit = (await create(e, 'CREDIT', '5', { wallet: c.id })).data.createLimit;
    const capture = await gql(e, `mutation($id: ID!, $p: ID!) { captureHold(id: $id, projectId: $p) { hold { status } } }`, { id: held.data.createHold.id, p: String(e.projectId) });
    expect(capture.errors[0].extensions).toEqual({ code: 'limit_exceeded', details: { limitId: credit.id, remaining: 5 } });
  });
});
