import { startTestApp, type TestApp } from '../support/test-app.js';
import { fundedProject, ISO_MS, minorBalances, UUID_RE as UUID, type FundedProject } from '../support/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const hold = (e: FundedProject, body: Record<string, unknown>, headers?: Record<string, string>) =>
  t.request('POST', '/holds', { key: e.key, headers, body: { currency: e.symbol, projectId: e.projectId, ...body } });
const capture = (e: FundedProject, id: string, body: Record<string, unknown> = {}) => t.request('POST', `/holds/${id}/capture`, { key: e.key, body: { projectId: e.projectId, ...body } });
const voidHold = (e: FundedProject, id: string) => t.request('POST', `/holds/${id}/void`, { key: e.key, body: { projectId: e.projectId } });
const balanceOf = async (e: FundedProject, walletId: string) => (await t.request('GET', `/transactions?walletId=${walletId}`, { key: e.key })).body.balance;

/** Waits until the clock has passed `iso` (a hold's expires_at): expiry is a matter of time, not of an event. */
async function passed(iso: string): Promise<void> {
  const wait = Date.parse(iso) - Date.now() + 5;
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

describe('POST /holds', () => {
  let e: FundedProject;
  beforeAll(async () => {
    e = await fundedProject(t, { owner: 'holds-create' }, { fund: 100 });
  });

  it('reserves available funds without posting, and answers the hold', async () => {
    const [a, b] = e.customers;
    const res = await hold(e, { amount: 30, from: a.id, to: b.address, expiresIn: 600, reference: 'order-1', metadata: { order: 1 } });
    expect(res.status).toBe(201);
    expect(res.body.hold).toEqual({
      id: expect.stringMatching(UUID),
      projectId: e.projectId,
      amount: 30,
      currency: 'PTS',
      from: a.address,
      to: b.address,
      status: 'pending',
      capturedAmount: 0,
      transactionId: null,
      expires_at: expect.stringMatching(ISO_MS),
      matures_at: null,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
      reference: 'order-1',
      metadata: { order: 1 },
    });
    expect(Date.parse(res.body.hold.expires_at) - Date.parse(res.body.hold.created_at)).toBe(600_000);
    expect(await balanceOf(e, a.id)).toEqual({ account: a.address, currency: 'PTS', balance: 100, held: 30, available: 70, creditLimit: 0, incoming: 0 });
    expect(await balanceOf(e, b.id)).toMatchObject({ balance: 100, held: 0, available: 100, creditLimit: 0, incoming: 30 }); // CONTRACT §26: pending holds to it
    const wallet = await t.request('GET', `/wallets/${a.id}`, { key: e.key });
    expect(wallet.body.balance).toEqual([{ account: a.address, currency: 'PTS', balance: 100, held: 30, available: 70, creditLimit: 0, incoming: 0 }]);
    // nothing posted
    expect((await minorBalances(t, e.projectId)).get(a.id)).toBe(10000n);
    // a transfer spends only what is available
    const over = await t.request('POST', '/transactions', { key: e.key, body: { amount: 70.01, currency: 'PTS', from: a.id, to: b.id, projectId: e.projectId } });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('insufficient_funds');
    const again = await hold(e, { amount: 70.01, from: a.id, to: b.id });
    expect(again.body.code).toBe('insufficient_funds');
    await voidHold(e, res.body.hold.id);
  });

  it.each([
    ['expiresIn 0', { expiresIn: 0 }, 'expiresIn'],
    ['expiresIn over 30 days', { expiresIn: 2_592_001 }, 'expiresIn'],
    ['a fractional expiresIn', { expiresIn: 1.5 }, 'expiresIn'],
    ['a bad reference', { reference: 'has space' }, 'reference'],
    ['an empty reference', { reference: '' }, 'reference'],
    ['metadata that is not an object', { metadata: [1] }, 'metadata'],
    ['metadata over 4 KiB', { metadata: { x: 'y'.repeat(4100) } }, 'metadata'],
    ['an unknown field', { extra: 1 }, 'extra'],
  ])('refuses %s (400)', async (_, extra, field) => {
    const [a, b] = e.customers;
    const res = await hold(e, { amount: 1, from: a.id, to: b.id, ...extra });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.details.field).toBe(field);
  });

  it('refuses an unknown wallet (404) and an inactive one (409)', async () => {
    const [a, b] = e.customers;
    expect((await hold(e, { amount: 1, from: a.id, to: 'nobody' })).status).toBe(404);
    expect((await statusRoute(e, b.id, 'suspended')).status).toBe(200);
    const res = await hold(e, { amount: 1, from: a.id, to: b.id });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('wallet_inactive');
    expect((await statusRoute(e, b.id, 'active')).status).toBe(200);
  });

  it('keeps a reference unique across holds and transactions (409 with existingId)', async () => {
    const [a, b] = e.customers;
    const first = await hold(e, { amount: 1, from: a.id, to: b.id, reference: 'shared-ref' });
    expect(first.status).toBe(201);
    const tx = await t.request('POST', '/transactions', { key: e.key, body: { amount: 1, currency: 'PTS', from: a.id, to: b.id, projectId: e.projectId, reference: 'shared-ref' } });
    expect(tx.status).toBe(409);
    expect(tx.body).toEqual({ code: 'conflict', message: expect.any(String), details: { existingId: first.body.hold.id } });
    await voidHold(e, first.body.hold.id);
    // a voided hold keeps its reference reserved
    const later = await hold(e, { amount: 1, from: a.id, to: b.id, reference: 'shared-ref' });
    expect(later.status).toBe(409);
    expect(later.body.details.existingId).toBe(first.body.hold.id);
  });

  it('replays an idempotent creation without reserving twice', async () => {
    const [a, b] = e.customers;
    const headers = { 'idempotency-key': 'hold-once' };
    const first = await hold(e, { amount: 5, from: a.id, to: b.id }, headers);
    const second = await hold(e, { amount: 5, from: a.id, to: b.id }, headers);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect((await balanceOf(e, a.id)).held).toBe(5);
    await voidHold(e, first.body.hold.id);
  });
});

describe('capture and void', () => {
  let e: FundedProject;
  beforeAll(async () => {
    e = await fundedProject(t, { owner: 'holds-settle' }, { fund: 100 });
  });

  it('captures the whole hold: posts from → to and the hold is captured', async () => {
    const [a, b] = e.customers;
    const { body } = await hold(e, { amount: 25, from: a.id, to: b.id });
    const res = await capture(e, body.hold.id);
    expect(res.status).toBe(201);
    expect(res.body.transaction).toMatchObject({ amount: 25, from: a.address, to: b.address, balance: 75, reference: null, metadata: {}, reverses: null, reversedAmount: 0 });
    expect(res.body.hold).toMatchObject({ status: 'captured', capturedAmount: 25, amount: 25, transactionId: res.body.transaction.id });
    expect(await balanceOf(e, a.id)).toMatchObject({ balance: 75, held: 0, available: 75, creditLimit: 0 });
    expect(await balanceOf(e, b.id)).toMatchObject({ balance: 125 });
    const again = await capture(e, body.hold.id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('hold_not_pending');
    expect((await voidHold(e, body.hold.id)).body.code).toBe('hold_not_pending');
  });

  it('captures part of a hold and releases the rest', async () => {
    const [a, b] = e.customers;
    const { body } = await hold(e, { amount: 40, from: a.id, to: b.id });
    const res = await capture(e, body.hold.id, { amount: 10.5 });
    expect(res.status).toBe(201);
    expect(res.body.transaction.amount).toBe(10.5);
    expect(res.body.hold).toMatchObject({ amount: 40, capturedAmount: 10.5, status: 'captured' });
    expect(await balanceOf(e, a.id)).toMatchObject({ balance: 64.5, held: 0, available: 64.5, creditLimit: 0 });
  });

  it('refuses a capture above the hold amount (400) and an amount with too many decimals', async () => {
    const [a, b] = e.customers;
    const { body } = await hold(e, { amount: 5, from: a.id, to: b.id });
    expect((await capture(e, body.hold.id, { amount: 5.01 })).status).toBe(400);
    expect((await capture(e, body.hold.id, { amount: 0 })).status).toBe(400);
    expect((await capture(e, body.hold.id, { amount: 1.001 })).status).toBe(400);
    const voided = await voidHold(e, body.hold.id);
    expect(voided.status).toBe(200);
    expect(voided.body.hold).toMatchObject({ status: 'voided', capturedAmount: 0, transactionId: null });
    expect((await balanceOf(e, a.id)).held).toBe(0);
  });

  it('refuses a capture when a wallet is no longer active, leaving the hold pending', async () => {
    const [a, b] = e.customers;
    const { body } = await hold(e, { amount: 1, from: a.id, to: b.id });
    await t.db.query(`UPDATE wallets SET status = 'suspended' WHERE id = $1`, [b.id]);
    const res = await capture(e, body.hold.id);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('wallet_inactive');
    await t.db.query(`UPDATE wallets SET status = 'active' WHERE id = $1`, [b.id]);
    expect((await t.request('GET', `/holds/${body.hold.id}`, { key: e.key })).body.hold.status).toBe('pending');
    expect((await capture(e, body.hold.id)).status).toBe(201);
  });

  it('expires a hold at its expires_at: no longer held, shown expired, refused with hold_expired', async () => {
    const [a, b] = e.customers;
    const before = await balanceOf(e, a.id);
    const { body } = await hold(e, { amount: 3, from: a.id, to: b.id, expiresIn: 1 });
    expect((await balanceOf(e, a.id)).held).toBe(before.held + 3);
    await passed(body.hold.expires_at);
    // no job has run: the read computes it
    const read = await t.request('GET', `/holds/${body.hold.id}`, { key: e.key });
    expect(read.body.hold).toMatchObject({ status: 'expired', updated_at: body.hold.expires_at });
    expect(await balanceOf(e, a.id)).toMatchObject({ held: before.held, available: before.available });
    const res = await capture(e, body.hold.id);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('hold_expired');
    expect((await voidHold(e, body.hold.id)).body.code).toBe('hold_expired');
    const [row] = await t.db.query<{ held: string }>(`SELECT held::text FROM balances WHERE wallet_id = $1`, [a.id]);
    expect(BigInt(row.held)).toBe(BigInt(Math.round(before.held * 100)));
  });

  it('lets a transfer spend funds of a hold that expired without any release having run', async () => {
    const x = await fundedProject(t, { owner: 'holds-expired-spend' }, { fund: 10, customers: 2 });
    const [a, b] = x.customers;
    const { body } = await hold(x, { amount: 10, from: a.id, to: b.id, expiresIn: 1 });
    const blocked = await t.request('POST', '/transactions', { key: x.key, body: { amount: 10, currency: 'PTS', from: a.id, to: b.id, projectId: x.projectId } });
    expect(blocked.body.code).toBe('insufficient_funds');
    await passed(body.hold.expires_at);
    const res = await t.request('POST', '/transactions', { key: x.key, body: { amount: 10, currency: 'PTS', from: a.id, to: b.id, projectId: x.projectId } });
    expect(res.status).toBe(201);
    const [row] = await t.db.query<{ status: string }>(`SELECT status FROM holds WHERE id = $1`, [body.hold.id]);
    expect(row.status).toBe('expired');
  });

  it('answers 404 for another owner’s hold and for a hold of another project', async () => {
    const [a, b] = e.customers;
    const { body } = await hold(e, { amount: 1, from: a.id, to: b.id });
    const other = await fundedProject(t, { owner: 'holds-intruder' });
    expect((await t.request('GET', `/holds/${body.hold.id}`, { key: other.key })).status).toBe(404);
    expect((await t.request('POST', `/holds/${body.hold.id}/capture`, { key: other.key, body: { projectId: other.projectId } })).status).toBe(404);
    expect((await t.request('POST', `/holds/${body.hold.id}/void`, { key: other.key, body: { projectId: e.projectId } })).status).toBe(404);
    expect((await t.request('GET', `/holds?projectId=${e.projectId}`, { key: other.key })).status).toBe(404);
    expect((await t.request('POST', `/holds/${body.hold.id}/capture`, { key: e.key, body: { projectId: other.projectId } })).status).toBe(404);
    expect((await t.request('GET', `/holds/not-a-uuid`, { key: e.key })).status).toBe(400);
    await voidHold(e, body.hold.id);
  });
});

describe('GET /holds', () => {
  it('lists a project’s holds newest first, by wallet (either side) and status; projectId is required', async () => {
    const e = await fundedProject(t, { owner: 'holds-list' }, { fund: 50, customers: 3 });
    const [a, b, c] = e.customers;
    const h1 = (await hold(e, { amount: 1, from: a.id, to: b.id })).body.hold;
    const h2 = (await hold(e, { amount: 2, from: b.id, to: c.id })).body.hold;
    const h3 = (await hold(e, { amount: 3, from: c.id, to: a.id })).body.hold;
    await voidHold(e, h2.id);
    const all = await t.request('GET', `/holds?projectId=${e.projectId}`, { key: e.key });
    expect(all.status).toBe(200);
    expect(all.body.holds.map((h: { id: string }) => h.id)).toEqual([h3.id, h2.id, h1.id]);
    expect(all.body.pagination).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1 });
    const ofB = await t.request('GET', `/holds?projectId=${e.projectId}&walletId=${b.address}`, { key: e.key });
    expect(ofB.body.holds.map((h: { id: string }) => h.id)).toEqual([h2.id, h1.id]);
    const pending = await t.request('GET', `/holds?projectId=${e.projectId}&status=pending&limit=1&page=2`, { key: e.key });
    expect(pending.body.holds.map((h: { id: string }) => h.id)).toEqual([h1.id]);
    expect(pending.body.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
    expect((await t.request('GET', `/holds`, { key: e.key })).status).toBe(400);
    expect((await t.request('GET', `/holds?projectId=${e.projectId}&status=lost`, { key: e.key })).status).toBe(400);
    expect((await t.request('GET', `/holds?projectId=${e.projectId}&walletId=nobody`, { key: e.key })).status).toBe(404);
  });
});

describe('holds and the lifecycle of wallets and assets', () => {
  it('a wallet with a pending hold on either side cannot close; an asset with holds is in use', async () => {
    const e = await fundedProject(t, { owner: 'holds-close' }, { fund: 10, customers: 2 });
    const [a, b] = e.customers;
    // b receives nothing yet: empty it first so only the hold stands in the way
    await t.request('POST', '/transactions', { key: e.key, body: { amount: 10, currency: 'PTS', from: b.id, to: e.system.id, projectId: e.projectId } });
    const { body } = await hold(e, { amount: 4, from: a.id, to: b.id });
    const closeStatus = await statusRoute(e, b.id, 'closed');
    expect(closeStatus.status).toBe(409);
    expect(closeStatus.body.code).toBe('wallet_not_empty');
    const asset = await t.db.query<{ id: string }>(`SELECT asset_id AS id FROM projects WHERE id = $1`, [e.projectId]);
    const del = await t.request('DELETE', `/assets/${asset[0].id}`, { key: e.key });
    expect(del.status).toBe(409);
    expect(del.body.code).toBe('asset_in_use');
    await voidHold(e, body.hold.id);
    expect((await statusRoute(e, b.id, 'closed')).status).toBe(200);
  });
});

async function statusRoute(e: FundedProject, walletId: string, status: string) {
  return t.request('PUT', `/wallets/status/${walletId}`, { key: e.key, body: { projectId: e.projectId, status } });
}
