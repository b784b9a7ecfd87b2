import { fundedProject, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { raw } from '../support/client.js';

/**
 * GraphQL over credit lines and conditions (CONTRACT §28): setCreditLine, Balance.creditLimit
 * (the SQL plan of `wallet` and the resolvers of `transactions` alike), `conditions` on transfer,
 * transferBatch legs and captureHold, refusals with extensions.code condition_failed.
 */
let t: TestApp;
let e: FundedProject;
beforeAll(async () => {
  t = await startTestApp();
  e = await fundedProject(t, { owner: 'gql-credit' }, { fund: 10, customers: 2 });
});
afterAll(() => t.close());

const SET = `mutation ($w: ID!, $p: ID!, $c: String!, $l: Decimal!) { setCreditLine(walletId: $w, projectId: $p, currency: $c, limit: $l) { walletId currency limit } }`;
const TRANSFER = `mutation ($input: TransferInput!, $dry: Boolean) { transfer(input: $input, dryRun: $dry) { id balance } }`;

describe('setCreditLine and Balance.creditLimit', () => {
  it('sets the line; wallet balances (SQL plan) and transactions.balance (resolvers) show creditLimit, available and a negative balance', async () => {
    const [a, b] = e.customers;
    const set = await raw(t, e.key, SET, { w: a.id, p: String(e.projectId), c: e.symbol, l: '15.25' });
    expect(set.body).toEqual({ data: { setCreditLine: { walletId: a.id, currency: e.symbol, limit: '15.25' } } });
    const sent = await raw(t, e.key, TRANSFER, { input: { projectId: String(e.projectId), currency: e.symbol, from: a.id, to: b.id, amount: '20' } });
    expect(sent.body.data.transfer.balance).toBe('-10');
    const wallet = await raw(t, e.key, `query ($id: ID!) { wallet(id: $id) { balances { balance held available creditLimit } } }`, { id: a.id });
    expect(wallet.body.data.wallet.balances).toEqual([{ balance: '-10', held: '0', available: '5.25', creditLimit: '15.25' }]);
    const history = await raw(t, e.key, `query ($w: String!) { transactions(walletId: $w) { balance { balance available creditLimit } } }`, { w: a.id });
    expect(history.body.data.transactions.balance).toEqual({ balance: '-10', available: '5.25', creditLimit: '15.25' });
    const asOf = await raw(t, e.key, `query ($id: ID!, $at: DateTime) { wallet(id: $id) { balances(asOf: $at) { balance creditLimit } } }`, { id: a.id, at: new Date().toISOString() });
    expect(asOf.body.data.wallet.balances).toEqual([{ balance: '-10', creditLimit: null }]);
  });

  it('refusals carry extensions.code: a closed wallet conflict, a negative limit validation_error', async () => {
    const negative = await raw(t, e.key, SET, { w: e.customers[0].id, p: String(e.projectId), c: e.symbol, l: '-1' });
    expect(negative.body.errors![0].extensions.code).toBe('validation_error');
    const unknown = await raw(t, e.key, SET, { w: e.customers[0].id, p: String(e.projectId), c: 'NOPE', l: '1' });
    expect(unknown.body.errors![0].extensions.code).toBe('not_found');
  });
});

describe('conditions', () => {
  it('on transfer: judged after the posting; the failure is condition_failed with {index, actual}', async () => {
    const [a, b] = e.customers;
    const input = (conditions: unknown[]) => ({ projectId: String(e.projectId), currency: e.symbol, from: b.id, to: a.id, amount: '1', conditions });
    const ok = await raw(t, e.key, TRANSFER, { input: input([{ wallet: a.address, currency: e.symbol, field: 'BALANCE', op: 'EQ', value: '-9' }]) });
    expect(ok.body.errors).toBeUndefined();
    const refused = await raw(t, e.key, TRANSFER, { input: input([{ wallet: a.id, currency: e.symbol, field: 'AVAILABLE', op: 'GTE', value: '0' }, { wallet: a.id, currency: e.symbol, field: 'BALANCE', op: 'GT', value: '-7.5' }]) });
    expect(refused.body.errors![0].extensions).toMatchObject({ code: 'condition_failed', details: { index: 1, actual: -8 } });
    const dry = await raw(t, e.key, TRANSFER, { input: input([{ wallet: a.id, currency: e.symbol, field: 'BALANCE', op: 'LT', value: '-9' }]), dry: true });
    expect(dry.body.errors![0].extensions).toMatchObject({ code: 'condition_failed', details: { index: 0, actual: -8 } });
  });

  it('on transferBatch legs and captureHold', async () => {
    const [a, b] = e.customers;
    const batch = await raw(t, e.key, `mutation ($p: ID!, $legs: [BatchTransferInput!]!) { transferBatch(projectId: $p, transfers: $legs) { id } }`, {
      p: String(e.projectId),
      legs: [
        { currency: e.symbol, from: b.id, to: a.id, amount: '1' },
        { currency: e.symbol, from: b.id, to: a.id, amount: '1', conditions: [{ wallet: a.id, currency: e.symbol, field: 'BALANCE', op: 'GTE', value: '0' }] },
      ],
    });
    expect(batch.body.errors![0].extensions).toMatchObject({ code: 'condition_failed', details: { index: 1, condition: 0, actual: -7 } });
    const hold = await raw(t, e.key, `mutation ($p: ID!, $c: String!, $f: String!, $to: String!) { createHold(projectId: $p, currency: $c, from: $f, to: $to, amount: "2") { id } }`, {
      p: String(e.projectId), c: e.symbol, f: b.id, to: a.id,
    });
    const capture = `mutation ($id: ID!, $p: ID!, $cond: [ConditionInput!]) { captureHold(id: $id, projectId: $p, conditions: $cond) { hold { status } } }`;
    const refused = await raw(t, e.key, capture, { id: hold.body.data.createHold.id, p: String(e.projectId), cond: [{ wallet: a.id, currency: e.symbol, field: 'BALANCE', op: 'GTE', value: '0' }] });
    expect(refused.body.errors![0].extensions).toMatchObject({ code: 'condition_failed', details: { index: 0, actual: -7 } });
    const captured = await raw(t, e.key, capture, { id: hold.body.data.createHold.id, p: String(e.projectId), cond: [{ wallet: a.id, currency: e.symbol, field: 'BALANCE', op: 'EQ', value: '-7' }] });
    expect(captured.body.data.captureHold.hold.status).toBe('CAPTURED');
  });
});
