import { randomUUID } from 'node:crypto';
import { fundedProject, transfer, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { TransactionDocument } from '../generated/graphql.js';
import { raw, run } from '../support/client.js';

let t: TestApp;
let alice: FundedProject;
let bob: FundedProject;
let paid: string;
let bobSeed: string;

beforeAll(async () => {
  t = await startTestApp();
  alice = await fundedProject(t, await t.issueKey('tx-by-id-alice'), { customers: 2 });
  bob = await fundedProject(t, await t.issueKey('tx-by-id-bob'), { customers: 1 });
  const [customer] = alice.customers;
  const posted = await t.request('POST', '/transactions', {
    key: alice.key,
    body: { amount: 12.5, currency: alice.symbol, from: alice.system.id, to: customer.id, projectId: alice.projectId, reference: 'order-1', metadata: { order: 1 } },
  });
  expect(posted.status).toBe(201);
  paid = posted.body.transaction.id;
  expect((await t.request('POST', `/transactions/${paid}/reverse`, { key: alice.key, body: { projectId: alice.projectId, amount: 2.5 } })).status).toBe(201);
  await transfer(t, alice, customer.id, alice.customers[1].id, 1);
  bobSeed = (await t.request('GET', `/transactions?walletId=${bob.system.id}`, { key: bob.key })).body.transactions[0].id;
});
afterAll(() => t.close());

describe('transaction(id)', () => {
  it("answers the caller's transaction with the fields it has everywhere else, `balance` null (no wallet's side)", async () => {
    const res = await run(t, alice.key, TransactionDocument, { id: paid });
    expect(res.body.errors).toBeUndefined();
    // the same transaction in the sender's history, where `balance` is the sender's
    const history = await raw(t, alice.key, `query($w: ID!) { wallet(id: $w) { transactions(first: 20) { edges { node {
      id amount currency from to date balance reverses reversedAmount reference metadata projectId } } } } }`, { w: alice.system.id });
    const listed = history.body.data.wallet.transactions.edges.map((edge: { node: { id: string } }) => edge.node).find((node: { id: string }) => node.id === paid);
    expect(listed.balance).toBe('987.5');
    expect(res.body.data!.transaction).toEqual({
      ...listed,
      balance: null,
      fromWallet: { id: alice.system.id },
      toWallet: { id: alice.customers[0].id },
    });
    expect(res.body.data!.transaction).toMatchObject({ amount: '12.5', reversedAmount: '2.5', reference: 'order-1', metadata: { order: 1 }, projectId: String(alice.projectId) });
  });

  it('reads a seed (no sending wallet) and a reversal (pointing at its original)', async () => {
    const seed = await run(t, bob.key, TransactionDocument, { id: bobSeed });
    expect(seed.body.data!.transaction).toMatchObject({ from: '@mint', fromWallet: null, toWallet: { id: bob.system.id }, amount: '1000' });
    const reversal = (await t.request('GET', `/transactions?walletId=${alice.customers[0].id}`, { key: alice.key })).body.transactions.find(
      (tx: { reverses: string | null }) => tx.reverses === paid,
    );
    const read = await run(t, alice.key, TransactionDocument, { id: reversal.id });
    expect(read.body.data!.transaction).toMatchObject({ reverses: paid, amount: '2.5', fromWallet: { id: alice.customers[0].id }, toWallet: { id: alice.system.id } });
  });

  it("answers another owner's transaction exactly as a missing one: not_found, transaction null", async () => {
    const missing = randomUUID();
    const others = await run(t, bob.key, TransactionDocument, { id: paid });
    const unknown = await run(t, bob.key, TransactionDocument, { id: missing });
    expect(others.body.data).toEqual({ transaction: null });
    expect(others.body.errors).toEqual([expect.objectContaining({ path: ['transaction'], extensions: { code: 'not_found', details: { resource: 'transaction', id: paid } } })]);
    expect(unknown.body.data).toEqual({ transaction: null });
    expect(unknown.body.errors).toEqual([expect.objectContaining({ path: ['transaction'], extensions: { code: 'not_found', details: { resource: 'transaction', id: missing } } })]);
    expect(others.body.errors![0].message).toBe(unknown.body.errors![0].message);
  });

  it("answers a dry run's id (never stored) not_found", async () => {
    const dry = await raw(t, alice.key, `mutation($input: TransferInput!) { transfer(input: $input, dryRun: true) { id } }`, {
      input: { projectId: String(alice.projectId), currency: alice.symbol, from: alice.system.id, to: alice.customers[1].id, amount: '1' },
    });
    const read = await run(t, alice.key, TransactionDocument, { id: dry.body.data.transfer.id });
    expect(read.body.errors?.map((e) => e.extensions.code)).toEqual(['not_found']);
  });

  it('refuses a malformed id with validation_error naming the field', async () => {
    const res = await run(t, alice.key, TransactionDocument, { id: 'not-a-uuid' });
    expect(res.body.errors?.[0].extensions).toMatchObject({ code: 'validation_error', details: { field: 'id' } });
  });

  it('reads several ids of one request in one statement (the request loader, shared with _entities)', async () => {
    const ids = (await t.request('GET', `/transactions?walletId=${alice.customers[0].id}`, { key: alice.key })).body.transactions.map((tx: { id: string }) => tx.id);
    expect(ids.length).toBe(3);
    const query = `query($a: ID!, $b: ID!, $c: ID!, $r: [_Any!]!) {
      a: transaction(id: $a) { id } b: transaction(id: $b) { id } c: transaction(id: $c) { id }
      _entities(representations: $r) { ... on Transaction { id } } }`;
    const res = await raw(t, alice.key, query, { a: ids[0], b: ids[1], c: ids[2], r: [{ __typename: 'Transaction', id: paid }] });
    expect(res.body.errors).toBeUndefined();
    expect([res.body.data.a.id, res.body.data.b.id, res.body.data.c.id, res.body.data._entities[0].id]).toEqual([ids[0], ids[1], ids[2], paid]);
    expect(res.statements).toBe(1);
  });

  it('is under the cost limit like any root: a page of wallets with their pages below it is refused before any SQL', async () => {
    const query = `query($id: ID!) { transaction(id: $id) { fromWallet { transactions(first: 100) { edges { node {
      toWallet { transactions(first: 100) { edges { node { id } } } } } } } } } }`;
    const res = await raw(t, alice.key, query, { id: paid });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    // transaction 1 + fromWallet 1 + (1 + 100 × (edge 1 + node 1 + toWallet 1 + (1 + 100 × (edge 1 + node 1))))
    expect(res.body.errors![0].extensions).toEqual({ code: 'validation_error', details: { limit: 'cost', maximum: 10_000, actual: 1 + 1 + 1 + 100 * (3 + 1 + 100 * 2) } });
    expect(res.statements).toBe(0);
  });
});
