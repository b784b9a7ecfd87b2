import { startTestApp, type TestApp } from '../../support/test-app.js';
import { fundedProject, type FundedProject } from '../../support/fixtures.js';

/**
 * `dryRun: true` on the six posting mutations (CONTRACT §24): the same payload as the real
 * mutation, the same errors, nothing written. The payload types are the real ones (no marker
 * field): the caller asked for the dry run (docs/decisions/dry-runs.md).
 */
let t: TestApp;
let e: FundedProject;
beforeAll(async () => {
  t = await startTestApp();
  e = await fundedProject(t, { owner: 'gql-dry' }, { fund: 100, customers: 2 });
});
afterAll(() => t.close());

const gql = async (query: string, variables: Record<string, unknown> = {}, key = e.key) => (await t.graphql(key, query, variables)).body;

async function written(): Promise<unknown> {
  const [row] = await t.db.query(
    `SELECT (SELECT count(*) FROM transactions)::int AS transactions, (SELECT count(*) FROM holds)::int AS holds,
            (SELECT count(*) FROM events)::int AS events, (SELECT count(*) FROM idempotency_keys)::int AS idempotency,
            (SELECT json_agg(json_build_array(wallet_id, asset_id, amount::text, held::text) ORDER BY wallet_id, asset_id) FROM balances) AS balances,
            (SELECT json_agg(json_build_array(id, status, captured_amount::text) ORDER BY id) FROM holds) AS hold_states,
            (SELECT json_agg(json_build_array(id, reversed_amount::text) ORDER BY id) FROM transactions) AS reversed`,
  );
  return row;
}

const TX = 'id amount currency balance from to reverses reversedAmount reference metadata';
const HOLD = 'id amount status capturedAmount from to reference';
const TRANSFER = `mutation($input: TransferInput!, $dry: Boolean, $key: String) { transfer(input: $input, dryRun: $dry, idempotencyKey: $key) { ${TX} } }`;
const SEED = `mutation($input: SeedInput!, $dry: Boolean) { seed(input: $input, dryRun: $dry) { ${TX} } }`;
const BATCH = `mutation($p: ID!, $legs: [BatchTransferInput!]!, $dry: Boolean) { transferBatch(projectId: $p, transfers: $legs, dryRun: $dry) { ${TX} } }`;
const REVERSE = `mutation($id: ID!, $p: ID!, $amount: Decimal, $dry: Boolean) { reverseTransaction(id: $id, projectId: $p, amount: $amount, dryRun: $dry) { ${TX} } }`;
const CREATE = `mutation($p: ID!, $from: String!, $to: String!, $amount: Decimal!, $dry: Boolean) { createHold(projectId: $p, currency: "PTS", from: $from, to: $to, amount: $amount, dryRun: $dry) { ${HOLD} } }`;
const CAPTURE = `mutation($id: ID!, $p: ID!, $amount: Decimal, $dry: Boolean) { captureHold(id: $id, projectId: $p, amount: $amount, dryRun: $dry) { transaction { ${TX} } hold { ${HOLD} transactionId } } }`;

const withoutId = ({ id: _id, ...rest }: Record<string, unknown>) => rest;

/** Runs `query` as a dry run, checks nothing was written, then for real; both payloads. */
async function dryThenReal(query: string, variables: Record<string, unknown>): Promise<{ dry: any; real: any }> {
  const before = await written();
  const dry = await gql(query, { ...variables, dry: true });
  expect(await written()).toEqual(before);
  const real = await gql(query, { ...variables, dry: false });
  return { dry, real };
}

describe('dryRun on the posting mutations', () => {
  const p = () => String(e.projectId);

  it('transfer, seed and transferBatch answer the real payload and write nothing', async () => {
    const [a, b] = e.customers;
    const transfer = await dryThenReal(TRANSFER, { input: { projectId: p(), currency: 'PTS', from: a.id, to: b.id, amount: '7.25', reference: 'g-dry-1' } });
    expect(transfer.dry.errors).toBeUndefined();
    expect(transfer.dry.data.transfer).toMatchObject({ amount: '7.25', balance: '92.75', reference: 'g-dry-1' });
    expect(withoutId(transfer.real.data.transfer)).toEqual(withoutId(transfer.dry.data.transfer));
    const seed = await dryThenReal(SEED, { input: { projectId: p(), currency: 'PTS', to: e.system.id, amount: 5 } });
    expect(seed.dry.data.seed).toMatchObject({ amount: '5', from: '@mint' });
    expect(withoutId(seed.real.data.seed)).toEqual(withoutId(seed.dry.data.seed));
    const legs = [{ currency: 'PTS', from: b.id, to: a.id, amount: 1 }, { currency: 'PTS', from: a.id, to: b.id, amount: 2 }];
    const batch = await dryThenReal(BATCH, { p: p(), legs });
    expect(batch.dry.data.transferBatch).toHaveLength(2);
    expect(batch.real.data.transferBatch.map(withoutId)).toEqual(batch.dry.data.transferBatch.map(withoutId));
  });

  it('reverseTransaction, createHold and captureHold answer the real payload and write nothing', async () => {
    const [a, b] = e.customers;
    const original = (await gql(TRANSFER, { input: { projectId: p(), currency: 'PTS', from: a.id, to: b.id, amount: 10 } })).data.transfer;
    const reverse = await dryThenReal(REVERSE, { id: original.id, p: p(), amount: 4 });
    expect(reverse.dry.data.reverseTransaction).toMatchObject({ amount: '4', reverses: original.id });
    expect(withoutId(reverse.real.data.reverseTransaction)).toEqual(withoutId(reverse.dry.data.reverseTransaction));
    const create = await dryThenReal(CREATE, { p: p(), from: a.id, to: b.id, amount: 3 });
    expect(create.dry.data.createHold).toMatchObject({ amount: '3', status: 'PENDING' });
    expect(withoutId(create.real.data.createHold)).toEqual(withoutId(create.dry.data.createHold));
    expect((await gql(`query($id: ID!) { hold(id: $id) { id } }`, { id: create.dry.data.createHold.id })).data.hold).toBeNull();
    const hold = create.real.data.createHold;
    const capture = await dryThenReal(CAPTURE, { id: hold.id, p: p(), amount: 2 });
    expect(capture.dry.data.captureHold).toMatchObject({ transaction: { amount: '2' }, hold: { id: hold.id, status: 'CAPTURED', capturedAmount: '2' } });
    const { transactionId: dryTx, ...dryHold } = capture.dry.data.captureHold.hold;
    const { transactionId: realTx, ...realHold } = capture.real.data.captureHold.hold;
    expect(dryTx).toBe(capture.dry.data.captureHold.transaction.id);
    expect(realTx).toBe(capture.real.data.captureHold.transaction.id);
    expect(realHold).toEqual(dryHold);
    expect(withoutId(capture.real.data.captureHold.transaction)).toEqual(withoutId(capture.dry.data.captureHold.transaction));
  });

  it('refuses with the real mutation’s error', async () => {
    const [a, b] = e.customers;
    const original = (await gql(TRANSFER, { input: { projectId: p(), currency: 'PTS', from: a.id, to: b.id, amount: 1 } })).data.transfer;
    const other = await fundedProject(t, { owner: 'gql-dry-other' }, { customers: 1 });
    const cases: [string, Record<string, unknown>, string][] = [
      [TRANSFER, { input: { projectId: p(), currency: 'PTS', from: a.id, to: b.id, amount: 100_000 } }, 'insufficient_funds'],
      [TRANSFER, { input: { projectId: p(), currency: 'PTS', from: a.id, to: other.customers[0].id, amount: 1 } }, 'not_found'],
      [BATCH, { p: p(), legs: [{ currency: 'PTS', from: a.id, to: b.id, amount: 1 }, { currency: 'PTS', from: a.id, to: b.id, amount: 100_000 }] }, 'insufficient_funds'],
      [REVERSE, { id: original.id, p: p(), amount: 2 }, 'conflict'],
      [CREATE, { p: p(), from: a.id, to: b.id, amount: 100_000 }, 'insufficient_funds'],
      [SEED, { input: { projectId: p(), currency: 'PTS', to: a.id, amount: 1 } }, 'validation_error'],
    ];
    for (const [query, variables, code] of cases) {
      const { dry, real } = await dryThenReal(query, variables);
      expect(dry.errors[0].extensions.code).toBe(code);
      expect(dry.errors.map(({ message, extensions }: any) => ({ message, extensions }))).toEqual(real.errors.map(({ message, extensions }: any) => ({ message, extensions })));
    }
  });

  it('ignores idempotencyKey on a dry run; a non-Boolean dryRun is refused', async () => {
    const [a, b] = e.customers;
    const before = await written();
    const dry = await gql(TRANSFER, { input: { projectId: p(), currency: 'PTS', from: a.id, to: b.id, amount: 1 }, dry: true, key: 'g-dry-key' });
    expect(dry.errors).toBeUndefined();
    expect(await written()).toEqual(before);
    const real = await gql(TRANSFER, { input: { projectId: p(), currency: 'PTS', from: a.id, to: b.id, amount: 2 }, key: 'g-dry-key' });
    expect(real.errors).toBeUndefined();
    expect(real.data.transfer.amount).toBe('2');
    const bad = await t.graphql(e.key, `mutation { transfer(input: {projectId: "${e.projectId}", currency: "PTS", from: "${a.id}", to: "${b.id}", amount: 1}, dryRun: "yes") { id } }`);
    expect(bad.body.errors[0].extensions.code).toBe('validation_error');
    expect(bad.body.data ?? null).toBeNull();
  });
});

/**
 * A dry run stores no idempotency record, whichever way the key came (CONTRACT §24 clarification):
 * the mutation's `idempotencyKey`, or the HTTP `Idempotency-Key` header, which covers the whole
 * request. A request under the header that ran only dry runs keeps nothing; one that also ran a
 * real mutation keeps its answer, so that a retry replays that mutation instead of posting again.
 */
describe('dry runs and idempotency keys', () => {
  const input = () => ({ projectId: p(), currency: 'PTS', from: e.customers[0].id, to: e.customers[1].id, amount: 1 });
  const p = () => String(e.projectId);
  const stored = async (key: string) => (await t.db.query(`SELECT 1 FROM idempotency_keys WHERE key = $1`, [key])).length;
  const postings = async () => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM transactions WHERE project_id = $1`, [e.projectId]))[0].n;

  it('the argument: a dry run keeps nothing, and the real mutation with the same key and arguments posts', async () => {
    const dry = await gql(TRANSFER, { input: input(), dry: true, key: 'g-dry-same' });
    expect(dry.errors).toBeUndefined();
    expect(await stored('g-dry-same')).toBe(0);
    const before = await postings();
    const real = await gql(TRANSFER, { input: input(), dry: false, key: 'g-dry-same' });
    expect(real.errors).toBeUndefined();
    expect(real.data.transfer.id).not.toBe(dry.data.transfer.id);
    expect(await postings()).toBe(before + 1);
    expect(await stored('g-dry-same')).toBe(1);
  });

  it('the header: a request of dry runs keeps nothing, and the real request under the same key posts, not replayed', async () => {
    const headers = { 'idempotency-key': 'g-dry-header' };
    for (const query of [TRANSFER, CREATE]) {
      const variables = query === TRANSFER ? { input: input() } : { p: p(), from: e.customers[0].id, to: e.customers[1].id, amount: 1 };
      const dry = await t.graphql(e.key, query, { ...variables, dry: true }, headers);
      expect(dry.body.errors).toBeUndefined();
      expect(dry.headers.get('idempotent-replayed')).toBeNull();
      expect(await stored('g-dry-header')).toBe(0);
    }
    const before = await postings();
    const real = await t.graphql(e.key, TRANSFER, { input: input(), dry: false }, headers);
    expect(real.body.errors).toBeUndefined();
    expect(real.headers.get('idempotent-replayed')).toBeNull();
    expect(await postings()).toBe(before + 1);
    expect(await stored('g-dry-header')).toBe(1);
  });

  it('the header on a request of dry runs is ignored before any claim: a key used by an earlier real request neither replays nor refuses it', async () => {
    const headers = { 'idempotency-key': 'g-dry-after-real' };
    const real = await t.graphql(e.key, TRANSFER, { input: input(), dry: false }, headers);
    expect(real.body.errors).toBeUndefined();
    // other arguments under the same key: a real request would be idempotency_key_reuse; a dry run is judged, not replayed
    const dry = await t.graphql(e.key, TRANSFER, { input: { ...input(), amount: 2 }, dry: true }, headers);
    expect(dry.body.errors).toBeUndefined();
    expect(dry.headers.get('idempotent-replayed')).toBeNull();
    expect(dry.body.data.transfer.id).not.toBe(real.body.data.transfer.id);
    expect(await stored('g-dry-after-real')).toBe(1); // the real request's record, untouched
  });

  it('the header over a dry run beside a real mutation: kept, so a retry replays the real one and posts nothing', async () => {
    const headers = { 'idempotency-key': 'g-dry-mixed' };
    const both = `mutation($input: TransferInput!) { dry: transfer(input: $input, dryRun: true) { id } real: transfer(input: $input) { id } }`;
    const before = await postings();
    const first = await t.graphql(e.key, both, { input: input() }, headers);
    expect(first.body.errors).toBeUndefined();
    expect(await postings()).toBe(before + 1);
    const retry = await t.graphql(e.key, both, { input: input() }, headers);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await postings()).toBe(before + 1);
  });
});

