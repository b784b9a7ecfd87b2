import { startTestApp, type TestApp } from '../support/test-app.js';
import { fundedProject, minorBalances, type FundedProject } from '../support/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const post = (e: FundedProject, path: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  t.request('POST', path, { key: e.key, headers, body: { projectId: e.projectId, ...body } });
const transfer = (e: FundedProject, body: Record<string, unknown>) => post(e, '/transactions', { currency: e.symbol, ...body });
const reverse = (e: FundedProject, id: string, body: Record<string, unknown> = {}) => post(e, `/transactions/${id}/reverse`, body);

async function mintedMinusReturned(projectId: number): Promise<bigint> {
  const [row] = await t.db.query<{ n: string }>(
    `SELECT (coalesce(sum(amount) FILTER (WHERE from_wallet_id IS NULL), 0) - coalesce(sum(amount) FILTER (WHERE to_wallet_id IS NULL), 0))::text AS n
       FROM transactions WHERE project_id = $1`,
    [projectId],
  );
  return BigInt(row.n);
}
const sum = (m: Map<string, bigint>) => [...m.values()].reduce((x, y) => x + y, 0n);

describe('POST /transactions/{id}/reverse', () => {
  let e: FundedProject;
  beforeAll(async () => {
    e = await fundedProject(t, { owner: 'reverse' }, { fund: 100 });
  });

  it('reverses part, then the rest by default; reverses/reversedAmount on both; the cap holds', async () => {
    const [a, b] = e.customers;
    const original = (await transfer(e, { amount: 30, from: a.id, to: b.id, reference: 'order-9' })).body.transaction;
    expect(original).toMatchObject({ reverses: null, reversedAmount: 0, reference: 'order-9' });
    const part = await reverse(e, original.id, { amount: 10, reference: 'refund-9a', metadata: { why: 'damaged' } });
    expect(part.status).toBe(201);
    expect(part.body.transaction).toMatchObject({ amount: 10, from: b.address, to: a.address, balance: 120, reverses: original.id, reversedAmount: 0, reference: 'refund-9a', metadata: { why: 'damaged' } });
    const rest = await reverse(e, original.id);
    expect(rest.status).toBe(201);
    expect(rest.body.transaction).toMatchObject({ amount: 20, reverses: original.id, balance: 100 });
    const more = await reverse(e, original.id, { amount: 0.01 });
    expect(more.status).toBe(409);
    expect(more.body).toEqual({ code: 'conflict', message: expect.any(String), details: { reversible: 0 } });
    const history = await t.request('GET', `/transactions?walletId=${a.id}&limit=3`, { key: e.key });
    const listed = history.body.transactions.find((x: { id: string }) => x.id === original.id);
    expect(listed).toMatchObject({ reversedAmount: 30 });
    const byRef = await t.request('GET', `/transactions?walletId=${a.id}&reference=refund-9a`, { key: e.key });
    expect(byRef.body.transactions.map((x: { id: string }) => x.id)).toEqual([part.body.transaction.id]);
    expect(byRef.body.pagination.total).toBe(1);
    const none = await t.request('GET', `/transactions?walletId=${a.id}&reference=nothing-here`, { key: e.key });
    expect(none.body.transactions).toEqual([]);
    expect((await t.request('GET', `/transactions?walletId=${a.id}&reference=bad ref`, { key: e.key })).status).toBe(400);
  });

  it('checks the cap before funds, and a reversal cannot be reversed', async () => {
    const [a, b] = e.customers;
    const original = (await transfer(e, { amount: 5, from: a.id, to: b.id })).body.transaction;
    const over = await reverse(e, original.id, { amount: 6 });
    expect(over.body).toMatchObject({ code: 'conflict', details: { reversible: 5 } });
    const reversal = (await reverse(e, original.id, { amount: 1 })).body.transaction;
    const again = await reverse(e, reversal.id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');
  });

  it('needs the receiver to have the amount available, and both wallets active', async () => {
    const x = await fundedProject(t, { owner: 'reverse-funds' }, { fund: 10, customers: 3 });
    const [a, b, c] = x.customers;
    const original = (await transfer(x, { amount: 10, from: a.id, to: b.id })).body.transaction;
    await transfer(x, { amount: 15, from: b.id, to: c.id });
    const res = await reverse(x, original.id);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('insufficient_funds');
    await transfer(x, { amount: 15, from: c.id, to: b.id });
    await post(x, '/holds', { amount: 16, currency: 'PTS', from: b.id, to: c.id }); // available 4 now
    expect((await reverse(x, original.id)).body.code).toBe('insufficient_funds');
    expect((await reverse(x, original.id, { amount: 4 })).status).toBe(201);
    await t.request('PUT', `/wallets/status/${a.id}`, { key: x.key, body: { projectId: x.projectId, status: 'suspended' } });
    expect((await reverse(x, original.id, { amount: 1 })).body.code).toBe('wallet_inactive');
  });

  it('returns a seed to @mint: conservation is seeded − returned', async () => {
    const x = await fundedProject(t, { owner: 'reverse-seed' }, { fund: 0, systemBalance: 100 });
    const [seedTx] = (await t.request('GET', `/transactions?walletId=${x.system.id}`, { key: x.key })).body.transactions;
    const res = await reverse(x, seedTx.id, { amount: 40 });
    expect(res.status).toBe(201);
    expect(res.body.transaction).toMatchObject({ from: x.system.address, to: '@mint', amount: 40, balance: 60, reverses: seedTx.id });
    expect(sum(await minorBalances(t, x.projectId))).toBe(await mintedMinusReturned(x.projectId));
    const history = await t.request('GET', `/transactions?walletId=${x.system.id}`, { key: x.key });
    expect(history.body.transactions[0]).toMatchObject({ to: '@mint', balance: 60 });
  });

  it('is idempotent, and another owner’s transaction (or another project) is 404', async () => {
    const [a, b] = e.customers;
    const original = (await transfer(e, { amount: 2, from: a.id, to: b.id })).body.transaction;
    const headers = { 'idempotency-key': 'reverse-once' };
    const first = await post(e, `/transactions/${original.id}/reverse`, { amount: 1 }, headers);
    const second = await post(e, `/transactions/${original.id}/reverse`, { amount: 1 }, headers);
    expect(second.body).toEqual(first.body);
    const [row] = await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM transactions WHERE reverses = $1`, [original.id]);
    expect(row.n).toBe('1');
    const other = await fundedProject(t, { owner: 'reverse-intruder' });
    expect((await reverse(other, original.id)).status).toBe(404);
    expect((await t.request('POST', `/transactions/${original.id}/reverse`, { key: e.key, body: { projectId: other.projectId } })).status).toBe(404);
    expect((await t.request('POST', `/transactions/nope/reverse`, { key: e.key, body: { projectId: e.projectId } })).status).toBe(400);
    expect((await reverse(e, original.id, { amount: -1 })).status).toBe(400);
  });
});

describe('POST /transactions/batch', () => {
  let e: FundedProject;
  beforeAll(async () => {
    e = await fundedProject(t, { owner: 'batch' }, { fund: 10, customers: 3 });
  });

  it('posts every leg in order, a later leg spending what an earlier one credited', async () => {
    const [a, b, c] = e.customers;
    const res = await post(e, '/transactions/batch', {
      transfers: [
        { amount: 10, currency: 'PTS', from: a.id, to: b.id, reference: 'split-1' },
        { amount: 20, currency: 'PTS', from: b.id, to: c.address, metadata: { leg: 2 } },
        { amount: 0.5, currency: 'PTS', from: c.id, to: a.id },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.transactions.map((x: any) => [x.amount, x.balance, x.reference])).toEqual([
      [10, 0, 'split-1'],
      [20, 0, null],
      [0.5, 29.5, null],
    ]);
    expect(res.body.transactions[1].metadata).toEqual({ leg: 2 });
  });

  it('refuses the whole batch at the first refused leg, with its index; nothing posted', async () => {
    const [a, b, c] = e.customers;
    const before = await minorBalances(t, e.projectId);
    const [{ n: count }] = await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM transactions WHERE project_id = $1`, [e.projectId]);
    const funds = await post(e, '/transactions/batch', { transfers: [{ amount: 1, currency: 'PTS', from: c.id, to: a.id }, { amount: 1000, currency: 'PTS', from: a.id, to: b.id }] });
    expect(funds.status).toBe(409);
    expect(funds.body).toEqual({ code: 'insufficient_funds', message: expect.any(String), details: { index: 1 } });
    const missing = await post(e, '/transactions/batch', { transfers: [{ amount: 1, currency: 'PTS', from: c.id, to: a.id }, { amount: 1, currency: 'PTS', from: a.id, to: 'nobody' }] });
    expect(missing.status).toBe(404);
    expect(missing.body.details.index).toBe(1);
    const field = await post(e, '/transactions/batch', { transfers: [{ amount: 1, currency: 'PTS', from: c.id, to: a.id }, { amount: 1.001, currency: 'PTS', from: a.id, to: b.id }] });
    expect(field.status).toBe(400);
    expect(field.body.details).toMatchObject({ index: 1, field: 'transfers.1.amount' });
    const shape = await post(e, '/transactions/batch', { transfers: [{ amount: 1, currency: 'PTS', from: c.id, to: a.id }, { amount: 'x', currency: 'PTS', from: a.id, to: b.id }] });
    expect(shape.status).toBe(400);
    expect(shape.body.details).toMatchObject({ index: 1, field: 'transfers.1.amount' });
    const repeated = await post(e, '/transactions/batch', { transfers: [{ amount: 1, currency: 'PTS', from: c.id, to: a.id, reference: 'twice' }, { amount: 1, currency: 'PTS', from: c.id, to: b.id, reference: 'twice' }] });
    expect(repeated.status).toBe(409);
    expect(repeated.body.details.index).toBe(1);
    expect(repeated.body.details.existingId).toBeUndefined();
    const taken = await post(e, '/transactions/batch', { transfers: [{ amount: 1, currency: 'PTS', from: c.id, to: a.id }, { amount: 1, currency: 'PTS', from: c.id, to: b.id, reference: 'split-1' }] });
    expect(taken.status).toBe(409);
    expect(taken.body.details).toMatchObject({ index: 1, existingId: expect.any(String) });
    expect((await post(e, '/transactions/batch', { transfers: [] })).status).toBe(400);
    const tooMany = Array.from({ length: 101 }, () => ({ amount: 0.01, currency: 'PTS', from: c.id, to: a.id }));
    expect((await post(e, '/transactions/batch', { transfers: tooMany })).status).toBe(400);
    expect(await minorBalances(t, e.projectId)).toEqual(before);
    const [{ n: after }] = await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM transactions WHERE project_id = $1`, [e.projectId]);
    expect(after).toBe(count);
  });

  it('posts 100 legs at once, and replays an idempotent batch', async () => {
    const [a, b] = e.customers;
    const legs = Array.from({ length: 100 }, (_, i) => ({ amount: 0.01, currency: 'PTS', from: i % 2 ? b.id : a.id, to: i % 2 ? a.id : b.id }));
    const headers = { 'idempotency-key': 'batch-once' };
    const first = await post(e, '/transactions/batch', { transfers: legs }, headers);
    expect(first.status).toBe(201);
    expect(first.body.transactions).toHaveLength(100);
    const again = await post(e, '/transactions/batch', { transfers: legs }, headers);
    expect(again.body).toEqual(first.body);
    const [{ n }] = await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM transactions WHERE id = ANY ($1::uuid[])`, [first.body.transactions.map((x: { id: string }) => x.id)]);
    expect(n).toBe('100');
  });

  it('references on transfers and seeds: unique per project, 409 with existingId', async () => {
    const x = await fundedProject(t, { owner: 'references' }, { fund: 10 });
    const [a, b] = x.customers;
    const first = (await transfer(x, { amount: 1, from: a.id, to: b.id, reference: 'ord#1' })).body.transaction;
    const dup = await post(x, '/transactions/seed', { amount: 1, currency: 'PTS', to: x.system.id, reference: 'ord#1' });
    expect(dup.body).toEqual({ code: 'conflict', message: expect.any(String), details: { existingId: first.id } });
    const other = await fundedProject(t, { owner: 'references-2' });
    const elsewhere = await post(other, '/transactions/seed', { amount: 1, currency: 'PTS', to: other.system.id, reference: 'ord#1' });
    expect(elsewhere.status).toBe(201);
    // a refused posting does not keep its reference
    const refused = await transfer(x, { amount: 999, from: a.id, to: b.id, reference: 'ord#2' });
    expect(refused.body.code).toBe('insufficient_funds');
    expect((await transfer(x, { amount: 1, from: a.id, to: b.id, reference: 'ord#2' })).status).toBe(201);
  });
});
