import { fundedProject, type FundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Posting conditions (CONTRACT §28 and its clarification): judged after the posting, last, in
 * order; the first that fails refuses with 409 condition_failed {index, actual} and posts nothing.
 */
let t: TestApp;
let e: FundedProject;
beforeAll(async () => {
  t = await startTestApp();
  e = await fundedProject(t, { owner: 'conditions' }, { fund: 100, customers: 3 });
});
afterAll(() => t.close());

const transfer = (body: Record<string, unknown>, query = '') =>
  t.request('POST', `/transactions${query}`, { key: e.key, body: { projectId: e.projectId, currency: e.symbol, from: e.customers[0].id, to: e.customers[1].id, amount: 10, ...body } });
const balanceOf = async (walletId: string) => (await t.request('GET', `/wallets/${walletId}`, { key: e.key })).body.balance[0];
const countOf = async () => Number((await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM transactions WHERE project_id = $1`, [e.projectId]))[0].n);

describe('conditions on POST /transactions', () => {
  it('posts when every condition holds on the balances after the posting (by id or address, balance and available)', async () => {
    const [a, b] = e.customers;
    const res = await transfer({
      conditions: [
        { wallet: a.id, currency: e.symbol, field: 'balance', op: 'eq', value: 90 },
        { wallet: b.address, currency: e.symbol, field: 'available', op: 'lte', value: 110 },
        { wallet: b.id, currency: e.symbol, field: 'balance', op: 'gt', value: 109.99 },
        { wallet: a.id, currency: e.symbol, field: 'balance', op: 'gte', value: -5 },
        { wallet: a.id, currency: e.symbol, field: 'available', op: 'lt', value: 90.01 },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.transaction.balance).toBe(90);
  });

  it('the first failing condition refuses with details {index, actual} (major units), and nothing is posted', async () => {
    const [a, b] = e.customers;
    const before = await countOf();
    const res = await transfer({
      conditions: [
        { wallet: a.id, currency: e.symbol, field: 'balance', op: 'gte', value: 0 },
        { wallet: b.id, currency: e.symbol, field: 'balance', op: 'lte', value: 115.5 },
        { wallet: a.id, currency: e.symbol, field: 'balance', op: 'lt', value: 0 },
      ],
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'condition_failed', details: { index: 1, actual: 120 } });
    expect(await countOf()).toBe(before);
    expect(await balanceOf(a.id)).toMatchObject({ balance: 90 });
    expect(await balanceOf(b.id)).toMatchObject({ balance: 110 });
  });

  it('is judged last: insufficient_funds comes first even when a condition would fail', async () => {
    const res = await transfer({ amount: 1000, conditions: [{ wallet: e.customers[0].id, currency: e.symbol, field: 'balance', op: 'gte', value: 1e6 }] });
    expect(res.body.code).toBe('insufficient_funds');
  });

  it('a dry run judges them too (200 when they hold, the same 409 when not), posting nothing', async () => {
    const before = await countOf();
    const ok = await transfer({ conditions: [{ wallet: e.customers[0].id, currency: e.symbol, field: 'balance', op: 'eq', value: 80 }] }, '?dryRun=true');
    expect(ok.status).toBe(200);
    const refused = await transfer({ conditions: [{ wallet: e.customers[0].id, currency: e.symbol, field: 'balance', op: 'eq', value: 90 }] }, '?dryRun=true');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'condition_failed', details: { index: 0, actual: 80 } });
    expect(await countOf()).toBe(before);
  });

  it('a currency the posting does not move is judged on its unchanged values', async () => {
    const other = await t.request('POST', '/assets', { key: e.key, body: { projectId: e.projectId, name: 'Gems', symbol: 'GEM', fractions: 1 } });
    expect(other.status).toBe(201);
    const held = await transfer({ conditions: [{ wallet: e.customers[1].id, currency: 'GEM', field: 'available', op: 'eq', value: 0 }] });
    expect(held.status).toBe(201);
    const refused = await transfer({ conditions: [{ wallet: e.customers[1].id, currency: 'GEM', field: 'balance', op: 'gt', value: 0 }] });
    expect(refused.body).toMatchObject({ code: 'condition_failed', details: { index: 0, actual: 0 } });
  });

  it('refuses bad conditions with 400 (a wallet not a party, a bad field, op or value, more than 10) and 404 for an unknown currency', async () => {
    const c = (over: Record<string, unknown>) => ({ wallet: e.customers[0].id, currency: e.symbol, field: 'balance', op: 'gte', value: 0, ...over });
    const notParty = await transfer({ conditions: [c({}), c({ wallet: e.customers[2].id })] });
    expect(notParty.status).toBe(400);
    expect(notParty.body.details.field).toBe('conditions.1.wallet');
    expect((await transfer({ conditions: [c({ field: 'held' })] })).status).toBe(400);
    expect((await transfer({ conditions: [c({ op: 'ne' })] })).status).toBe(400);
    expect((await transfer({ conditions: [c({ value: 0.001 })] })).status).toBe(400);
    expect((await transfer({ conditions: [c({ value: '1' })] })).status).toBe(400);
    expect((await transfer({ conditions: [c({ extra: 1 })] })).status).toBe(400);
    expect((await transfer({ conditions: Array(11).fill(c({})) })).status).toBe(400);
    expect((await transfer({ conditions: Array(10).fill(c({})) })).status).toBe(201);
    expect((await transfer({ conditions: [c({ currency: 'NOPE' })] })).status).toBe(404);
  });
});

describe('conditions on batch legs', () => {
  it("a leg's conditions see the batch's earlier legs; a failure refuses the batch with {index: leg, condition, actual}", async () => {
    const [a, b, c] = e.customers;
    const before = await countOf();
    const start = (await balanceOf(b.id)).balance as number;
    const leg = (from: string, to: string, amount: number, conditions?: unknown[]) => ({ currency: e.symbol, from, to, amount, ...(conditions && { conditions }) });
    const batch = (transfers: unknown[]) => t.request('POST', '/transactions/batch', { key: e.key, body: { projectId: e.projectId, transfers } });
    const refused = await batch([
      leg(a.id, b.id, 5),
      leg(b.id, c.id, 1, [
        { wallet: b.id, currency: e.symbol, field: 'balance', op: 'eq', value: start + 4 },
        { wallet: c.id, currency: e.symbol, field: 'balance', op: 'lt', value: 0 },
      ]),
    ]);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'condition_failed', details: { index: 1, condition: 1, actual: 101 } });
    expect(await countOf()).toBe(before);
    const posted = await batch([leg(a.id, b.id, 5), leg(b.id, c.id, 1, [{ wallet: b.id, currency: e.symbol, field: 'balance', op: 'eq', value: start + 4 }])]);
    expect(posted.status).toBe(201);
  });

  it('a leg naming a wallet of another leg only is 400 with the leg index', async () => {
    const [a, b, c] = e.customers;
    const res = await t.request('POST', '/transactions/batch', {
      key: e.key,
      body: { projectId: e.projectId, transfers: [{ currency: e.symbol, from: a.id, to: b.id, amount: 1 }, { currency: e.symbol, from: b.id, to: a.id, amount: 1, conditions: [{ wallet: c.id, currency: e.symbol, field: 'balance', op: 'gte', value: 0 }] }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toMatchObject({ index: 1, field: 'transfers.1.conditions.0.wallet' });
  });
});

describe('conditions on POST /holds/{id}/capture', () => {
  it('a failing condition leaves the hold pending; a holding one captures', async () => {
    const [a, b] = e.customers;
    const held = await t.request('POST', '/holds', { key: e.key, body: { projectId: e.projectId, currency: e.symbol, from: a.id, to: b.id, amount: 3 } });
    expect(held.status).toBe(201);
    const id = held.body.hold.id;
    const receiver = (await balanceOf(b.id)).balance as number;
    const refused = await t.request('POST', `/holds/${id}/capture`, { key: e.key, body: { projectId: e.projectId, conditions: [{ wallet: b.address, currency: e.symbol, field: 'balance', op: 'lte', value: receiver }] } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'condition_failed', details: { index: 0, actual: receiver + 3 } });
    expect((await t.request('GET', `/holds/${id}`, { key: e.key })).body.hold.status).toBe('pending');
    const captured = await t.request('POST', `/holds/${id}/capture`, { key: e.key, body: { projectId: e.projectId, conditions: [{ wallet: b.address, currency: e.symbol, field: 'balance', op: 'lte', value: receiver + 3 }] } });
    expect(captured.status).toBe(201);
    expect(captured.body.hold.status).toBe('captured');
  });
});
