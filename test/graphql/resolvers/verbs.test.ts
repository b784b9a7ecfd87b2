import { startTestApp, type TestApp } from '../../support/test-app.js';
import { fundedProject, type FundedProject } from '../../support/fixtures.js';

/** Holds, reversals, batches and references over GraphQL: the same services, the same errors (extensions.code). */
let t: TestApp;
let e: FundedProject;
beforeAll(async () => {
  t = await startTestApp();
  e = await fundedProject(t, { owner: 'gql-verbs' }, { fund: 100, customers: 3 });
});
afterAll(() => t.close());

const gql = async (query: string, variables: Record<string, unknown> = {}, key = e.key) => (await t.graphql(key, query, variables)).body;

const HOLD_FIELDS = 'id projectId amount currency from to status capturedAmount transactionId expiresAt createdAt updatedAt reference metadata';
const CREATE = `mutation($p: ID!, $from: String!, $to: String!, $amount: Decimal!, $expiresIn: Int, $reference: String, $metadata: JSONObject, $key: String) {
  createHold(projectId: $p, currency: "PTS", from: $from, to: $to, amount: $amount, expiresIn: $expiresIn, reference: $reference, metadata: $metadata, idempotencyKey: $key) { ${HOLD_FIELDS} } }`;
const CAPTURE = `mutation($id: ID!, $p: ID!, $amount: Decimal) { captureHold(id: $id, projectId: $p, amount: $amount) { transaction { id amount balance from to reference metadata } hold { status capturedAmount transactionId } } }`;
const VOID = `mutation($id: ID!, $p: ID!) { voidHold(id: $id, projectId: $p) { status } }`;

describe('holds over GraphQL', () => {
  it('creates, reads, lists, captures part and shows held/available on balances', async () => {
    const [a, b] = e.customers;
    const created = await gql(CREATE, { p: String(e.projectId), from: a.id, to: b.address, amount: '12.5', expiresIn: 60, reference: 'g-1', metadata: { k: 'v' } });
    expect(created.errors).toBeUndefined();
    const hold = created.data.createHold;
    expect(hold).toMatchObject({ amount: '12.5', status: 'PENDING', capturedAmount: '0', transactionId: null, reference: 'g-1', metadata: { k: 'v' }, from: a.address, to: b.address });
    const read = await gql(`query($id: ID!) { hold(id: $id) { id status } wallet(id: "${a.id}") { balances { balance held available } } }`, { id: hold.id });
    expect(read.data.hold).toEqual({ id: hold.id, status: 'PENDING' });
    expect(read.data.wallet.balances).toEqual([{ balance: '100', held: '12.5', available: '87.5' }]);
    const list = await gql(`query($p: ID!, $w: String) { holds(projectId: $p, walletId: $w, status: PENDING) { totalCount edges { node { id } } } }`, { p: String(e.projectId), w: b.address });
    expect(list.data.holds).toEqual({ totalCount: 1, edges: [{ node: { id: hold.id } }] });
    const captured = await gql(CAPTURE, { id: hold.id, p: String(e.projectId), amount: '2.5' });
    expect(captured.errors).toBeUndefined();
    expect(captured.data.captureHold).toMatchObject({ transaction: { amount: '2.5', balance: '97.5', reference: null, metadata: {} }, hold: { status: 'CAPTURED', capturedAmount: '2.5' } });
    expect(captured.data.captureHold.hold.transactionId).toBe(captured.data.captureHold.transaction.id);
    const again = await gql(VOID, { id: hold.id, p: String(e.projectId) });
    expect(again.errors[0].extensions.code).toBe('hold_not_pending');
  });

  it('answers hold_expired once expiresAt has passed, insufficient_funds beyond available, and null for another owner', async () => {
    const [a, b] = e.customers;
    const { data } = await gql(CREATE, { p: String(e.projectId), from: a.id, to: b.id, amount: 1, expiresIn: 1 });
    await new Promise((resolve) => setTimeout(resolve, Date.parse(data.createHold.expiresAt) - Date.now() + 5));
    const res = await gql(CAPTURE, { id: data.createHold.id, p: String(e.projectId) });
    expect(res.errors[0].extensions.code).toBe('hold_expired');
    expect((await gql(`query($id: ID!) { hold(id: $id) { status } }`, { id: data.createHold.id })).data.hold.status).toBe('EXPIRED');
    const over = await gql(CREATE, { p: String(e.projectId), from: a.id, to: b.id, amount: 1000 });
    expect(over.errors[0].extensions.code).toBe('insufficient_funds');
    const bad = await gql(CREATE, { p: String(e.projectId), from: a.id, to: b.id, amount: 1, expiresIn: 0 });
    expect(bad.errors[0].extensions).toMatchObject({ code: 'validation_error', details: { field: 'expiresIn' } });
    const other = await fundedProject(t, { owner: 'gql-verbs-intruder' });
    expect((await gql(`query($id: ID!) { hold(id: $id) { id } }`, { id: data.createHold.id }, other.key)).data.hold).toBeNull();
    const entities = await gql(`query($r: [_Any!]!) { _entities(representations: $r) { ... on Hold { id } } }`, { r: [{ __typename: 'Hold', id: data.createHold.id }] }, other.key);
    expect(entities.data._entities).toEqual([null]);
    const foreign = await gql(VOID, { id: data.createHold.id, p: String(other.projectId) }, other.key);
    expect(foreign.errors[0].extensions.code).toBe('not_found');
  });

  it('replays createHold with the same idempotencyKey, reserving once', async () => {
    const [, b, c] = e.customers;
    const vars = { p: String(e.projectId), from: c.id, to: b.id, amount: 3, key: 'gql-hold-once' };
    const first = await gql(CREATE, vars);
    const second = await gql(CREATE, vars);
    expect(second).toEqual(first);
    const [row] = await t.db.query<{ held: string }>(`SELECT held::text FROM balances WHERE wallet_id = $1`, [c.id]);
    expect(row.held).toBe('300');
  });
});

describe('transferBatch, reverseTransaction and references over GraphQL', () => {
  it('posts a batch and refuses one with details.index', async () => {
    const [a, b, c] = e.customers;
    const BATCH = `mutation($p: ID!, $legs: [BatchTransferInput!]!) { transferBatch(projectId: $p, transfers: $legs) { id amount balance reference toWallet { id } } }`;
    const ok = await gql(BATCH, { p: String(e.projectId), legs: [{ currency: 'PTS', from: b.id, to: c.id, amount: 1, reference: 'gb-1' }, { currency: 'PTS', from: c.id, to: a.id, amount: 2 }] });
    expect(ok.errors).toBeUndefined();
    expect(ok.data.transferBatch.map((x: any) => [x.amount, x.reference, x.toWallet.id])).toEqual([
      ['1', 'gb-1', c.id],
      ['2', null, a.id],
    ]);
    const refused = await gql(BATCH, { p: String(e.projectId), legs: [{ currency: 'PTS', from: b.id, to: c.id, amount: 1 }, { currency: 'PTS', from: c.id, to: a.id, amount: 100000 }] });
    expect(refused.errors[0].extensions).toMatchObject({ code: 'insufficient_funds', details: { index: 1 } });
    const bad = await gql(BATCH, { p: String(e.projectId), legs: [{ currency: 'PTS', from: b.id, to: c.id, amount: '0.001' }] });
    expect(bad.errors[0].extensions).toMatchObject({ code: 'validation_error', details: { index: 0, field: 'transfers.0.amount' } });
  });

  it('reverses a transfer and finds it by reference; reverses and reversedAmount resolve', async () => {
    const [a, b] = e.customers;
    const TRANSFER = `mutation($input: TransferInput!) { transfer(input: $input) { id reference metadata reversedAmount } }`;
    const tx = (await gql(TRANSFER, { input: { projectId: String(e.projectId), currency: 'PTS', from: a.id, to: b.id, amount: 4, reference: 'gt-1', metadata: { m: 1 } } })).data.transfer;
    expect(tx).toMatchObject({ reference: 'gt-1', metadata: { m: 1 }, reversedAmount: '0' });
    const REVERSE = `mutation($id: ID!, $p: ID!, $amount: Decimal) { reverseTransaction(id: $id, projectId: $p, amount: $amount) { id amount reverses from to } }`;
    const rev = await gql(REVERSE, { id: tx.id, p: String(e.projectId), amount: '1.5' });
    expect(rev.data.reverseTransaction).toMatchObject({ amount: '1.5', reverses: tx.id, from: b.address, to: a.address });
    const over = await gql(REVERSE, { id: tx.id, p: String(e.projectId), amount: '3' });
    expect(over.errors[0].extensions).toMatchObject({ code: 'conflict', details: { reversible: 2.5 } });
    const found = await gql(`query($w: String!, $r: String) { transactions(walletId: $w, reference: $r) { totalCount edges { node { id reversedAmount } } } }`, { w: a.id, r: 'gt-1' });
    expect(found.data.transactions).toEqual({ totalCount: 1, edges: [{ node: { id: tx.id, reversedAmount: '1.5' } }] });
  });
});
