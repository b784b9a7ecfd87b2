import { expectStatus, fundedProject, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * CONTRACT §26, pending credits: a maturing hold captures itself at `matures_at` for its whole
 * amount (dated `matures_at`, `hold.captured` with `matured: true`), unless voided (the clawback)
 * or captured early (`matured: false`) first; a refused maturity stays pending, writes
 * `hold.maturity_refused` once, is retried every minute and voided after 24 h. Time is moved by
 * the test (matures_at, maturity_due_at, maturity_refused_at written back), and the sweeper is
 * driven by the test (interval 0): no sleeps.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 500 } });
});
afterAll(() => t?.close());

const hold = (p: FundedProject, body: Record<string, unknown>) =>
  expectStatus(t.request('POST', '/holds', { key: p.key, body: { currency: p.symbol, projectId: p.projectId, ...body } }), 201).then((b) => b.hold);
const getHold = (p: FundedProject, id: string) => expectStatus(t.request('GET', `/holds/${id}`, { key: p.key }), 200).then((b) => b.hold);
const balanceOf = async (p: FundedProject, walletId: string) => (await expectStatus(t.request('GET', `/transactions?walletId=${walletId}`, { key: p.key }), 200)).balance;
const sweep = () => t.app.services.expirySweeper.sweepOnce();
/** A transaction as stored: its parties and date. */
async function transaction(id: string): Promise<{ amount: string; from: string; to: string; date: string }> {
  const [row] = await t.db.query<{ amount: string; from: string; to: string; date: Date }>(
    `SELECT amount::text, from_wallet_id AS "from", to_wallet_id AS "to", created_at AS date FROM transactions WHERE id = $1`,
    [id],
  );
  return { ...row, date: row.date.toISOString() };
}

/** The hold's time has come: matures_at (and its next attempt) now, as the clock would make it. */
async function dueNow(id: string): Promise<string> {
  const [row] = await t.db.query<{ matures_at: Date }>(
    `UPDATE holds SET matures_at = clock_timestamp()::timestamptz(3), maturity_due_at = clock_timestamp()::timestamptz(3) WHERE id = $1 RETURNING matures_at`,
    [id],
  );
  return row.matures_at.toISOString();
}
/** The minute before the next attempt has passed. */
const retryNow = (id: string) => t.db.query(`UPDATE holds SET maturity_due_at = clock_timestamp() WHERE id = $1`, [id]);

async function eventsOf(p: FundedProject, holdId: string): Promise<{ type: string; data: any; created_at: string }[]> {
  const { events } = await expectStatus(t.request('GET', `/events?projectId=${p.projectId}&limit=100`, { key: p.key }), 200);
  return events.filter((e: any) => (e.data.id ?? e.data.hold?.id) === holdId);
}

describe('a maturing hold at its time', () => {
  let p: FundedProject;
  beforeAll(async () => {
    p = await fundedProject(t, { owner: 'mature-main' }, { systemBalance: 1000 });
  });

  it('captures itself for its whole amount, dated matures_at, with hold.captured matured: true', async () => {
    const [c] = p.customers;
    const h = await hold(p, { amount: 40, from: p.system.id, to: c.id, matureIn: 3600 });
    expect(h).toMatchObject({ status: 'pending', expires_at: null });
    expect(Date.parse(h.matures_at) - Date.parse(h.created_at)).toBe(3_600_000);
    expect(await balanceOf(p, c.id)).toMatchObject({ balance: 0, held: 0, available: 0, incoming: 40 });
    expect(await balanceOf(p, p.system.id)).toMatchObject({ balance: 1000, held: 40, available: 960, incoming: 0 });
    expect((await sweep()).matured).toBe(0); // not yet its time

    const maturesAt = await dueNow(h.id);
    expect((await sweep()).matured).toBe(1);
    const after = await getHold(p, h.id);
    expect(after).toMatchObject({ status: 'captured', capturedAmount: 40, matures_at: maturesAt });
    expect(await transaction(after.transactionId)).toEqual({ amount: '4000', from: p.system.id, to: c.id, date: maturesAt });
    expect(await balanceOf(p, c.id)).toMatchObject({ balance: 40, held: 0, available: 40, incoming: 0 });
    expect(await balanceOf(p, p.system.id)).toMatchObject({ balance: 960, held: 0, available: 960 });
    const events = await eventsOf(p, h.id);
    expect(events.map((e) => e.type)).toEqual(['hold.created', 'hold.captured']);
    expect(events[1]).toMatchObject({ created_at: maturesAt, data: { id: h.id, status: 'captured', matured: true } });
    expect((await sweep()).matured).toBe(0); // once
  });

  it('can be captured early (matured: false) and is then not captured again', async () => {
    const [c] = p.customers;
    const h = await hold(p, { amount: 5, from: p.system.id, to: c.id, matureIn: 60 });
    await expectStatus(t.request('POST', `/holds/${h.id}/capture`, { key: p.key, body: { projectId: p.projectId } }), 201);
    await t.db.query(`UPDATE holds SET matures_at = clock_timestamp(), maturity_due_at = clock_timestamp() WHERE id = $1`, [h.id]);
    expect((await sweep()).matured).toBe(0);
    const events = await eventsOf(p, h.id);
    expect(events.map((e) => [e.type, e.data.matured])).toEqual([['hold.created', undefined], ['hold.captured', false]]);
  });

  it('voided before its time (the clawback) never matures', async () => {
    const [c] = p.customers;
    const before = await balanceOf(p, c.id);
    const h = await hold(p, { amount: 7, from: p.system.id, to: c.id, matureAt: new Date(Date.now() + 120_000).toISOString() });
    await expectStatus(t.request('POST', `/holds/${h.id}/void`, { key: p.key, body: { projectId: p.projectId } }), 200);
    await t.db.query(`UPDATE holds SET matures_at = clock_timestamp(), maturity_due_at = clock_timestamp() WHERE id = $1`, [h.id]);
    expect((await sweep()).matured).toBe(0);
    expect(await getHold(p, h.id)).toMatchObject({ status: 'voided', transactionId: null });
    expect(await balanceOf(p, c.id)).toEqual(before);
  });

  it('is dated after a transaction one of its wallets received meanwhile, never before it', async () => {
    const [c, d] = p.customers;
    const h = await hold(p, { amount: 3, from: p.system.id, to: c.id, matureIn: 60 });
    const maturesAt = await dueNow(h.id);
    const later = await expectStatus(t.request('POST', '/transactions', { key: p.key, body: { amount: 1, currency: p.symbol, from: p.system.id, to: d.id, projectId: p.projectId } }), 201);
    await sweep();
    const captured = await getHold(p, h.id);
    const { date } = await transaction(captured.transactionId);
    expect(Date.parse(date)).toBeGreaterThanOrEqual(Date.parse(maturesAt));
    expect(date).toBe(later.transaction.date); // the sender's latest transaction: its history stays in date order
  });
});

describe('a refused maturity', () => {
  let p: FundedProject;
  beforeAll(async () => {
    p = await fundedProject(t, { owner: 'mature-refused' }, { systemBalance: 1000 });
  });

  it('stays pending, writes hold.maturity_refused once, is retried every minute, and matures once allowed', async () => {
    const [c] = p.customers;
    const h = await hold(p, { amount: 10, from: p.system.id, to: c.id, matureIn: 60 });
    await expectStatus(t.request('PUT', `/wallets/status/${c.id}`, { key: p.key, body: { projectId: p.projectId, status: 'suspended' } }), 200);
    await dueNow(h.id);
    expect(await sweep()).toMatchObject({ matured: 1 }); // one settled: refused
    expect(await getHold(p, h.id)).toMatchObject({ status: 'pending' });
    const [{ due }] = await t.db.query<{ due: boolean }>(`SELECT maturity_due_at > clock_timestamp() + interval '50 seconds' AS due FROM holds WHERE id = $1`, [h.id]);
    expect(due).toBe(true); // the next attempt in a minute
    expect((await sweep()).matured).toBe(0); // not before then

    await retryNow(h.id);
    await sweep(); // refused again: no second event
    let events = await eventsOf(p, h.id);
    expect(events.map((e) => e.type)).toEqual(['hold.created', 'hold.maturity_refused']);
    expect(events[1].data).toEqual({ hold: expect.objectContaining({ id: h.id, status: 'pending' }), code: 'wallet_inactive' });

    await expectStatus(t.request('PUT', `/wallets/status/${c.id}`, { key: p.key, body: { projectId: p.projectId, status: 'active' } }), 200);
    await retryNow(h.id);
    await sweep();
    expect(await getHold(p, h.id)).toMatchObject({ status: 'captured', capturedAmount: 10 });
    events = await eventsOf(p, h.id);
    expect(events.map((e) => [e.type, e.data.matured])).toEqual([['hold.created', undefined], ['hold.maturity_refused', undefined], ['hold.captured', true]]);
  });

  it('is voided (hold.voided) when still refused 24 h after the first refusal', async () => {
    const [c] = p.customers;
    const h = await hold(p, { amount: 4, from: p.system.id, to: c.id, matureIn: 60 });
    await expectStatus(t.request('PUT', `/wallets/status/${c.id}`, { key: p.key, body: { projectId: p.projectId, status: 'suspended' } }), 200);
    await dueNow(h.id);
    await sweep();
    await t.db.query(`UPDATE holds SET maturity_refused_at = maturity_refused_at - interval '23 hours 59 minutes', maturity_due_at = clock_timestamp() WHERE id = $1`, [h.id]);
    await sweep();
    expect(await getHold(p, h.id)).toMatchObject({ status: 'pending' }); // 23 h 59 min: still tried
    await t.db.query(`UPDATE holds SET maturity_refused_at = maturity_refused_at - interval '1 minute', maturity_due_at = clock_timestamp() WHERE id = $1`, [h.id]);
    expect((await sweep()).matured).toBe(1);
    expect(await getHold(p, h.id)).toMatchObject({ status: 'voided', transactionId: null });
    expect((await eventsOf(p, h.id)).map((e) => e.type)).toEqual(['hold.created', 'hold.maturity_refused', 'hold.voided']);
    expect(await balanceOf(p, p.system.id)).toMatchObject({ held: 0 });
    expect(await balanceOf(p, c.id)).toMatchObject({ incoming: 0 });
    await expectStatus(t.request('PUT', `/wallets/status/${c.id}`, { key: p.key, body: { projectId: p.projectId, status: 'active' } }), 200);
  });

  it("is refused by the receiver's credit limit (limit_exceeded)", async () => {
    const [, d] = p.customers;
    await expectStatus(t.request('POST', '/limits', { key: p.key, body: { projectId: p.projectId, currency: p.symbol, direction: 'credit', amount: 5, windowSeconds: 3600, walletId: d.id } }), 201);
    const h = await hold(p, { amount: 6, from: p.system.id, to: d.id, matureIn: 60 });
    await dueNow(h.id);
    await sweep();
    expect(await getHold(p, h.id)).toMatchObject({ status: 'pending' });
    const events = await eventsOf(p, h.id);
    expect(events.at(-1)).toMatchObject({ type: 'hold.maturity_refused', data: { code: 'limit_exceeded' } });
  });

  it("is refused by the sender's debit limit whose window no longer contains the hold's creation (§19 clarification)", async () => {
    const q = await fundedProject(t, { owner: 'mature-aged' }, { systemBalance: 1000 });
    const [c, d] = q.customers;
    await expectStatus(t.request('POST', '/limits', { key: q.key, body: { projectId: q.projectId, currency: q.symbol, direction: 'debit', amount: 10, windowSeconds: 60, walletId: q.system.id } }), 201);
    const h = await hold(q, { amount: 8, from: q.system.id, to: c.id, matureIn: 60 });
    await t.db.query(`UPDATE holds SET created_at = created_at - interval '2 minutes' WHERE id = $1`, [h.id]); // its creation has left the window
    await expectStatus(t.request('POST', '/transactions', { key: q.key, body: { amount: 5, currency: q.symbol, from: q.system.id, to: d.id, projectId: q.projectId } }), 201);
    await dueNow(h.id);
    await sweep();
    expect(await getHold(q, h.id)).toMatchObject({ status: 'pending' });
    const { events } = await expectStatus(t.request('GET', `/events?projectId=${q.projectId}&limit=100`, { key: q.key }), 200);
    expect(events.find((e: any) => e.type === 'hold.maturity_refused')?.data.code).toBe('limit_exceeded');
  });
});

describe('a maturing hold on an expiring asset', () => {
  it('credits a lot like any credit, expiring expiresAfterSeconds after the capture', async () => {
    const p = await fundedProject(t, { owner: 'mature-lots' }, { systemBalance: 1000 });
    await expectStatus(t.request('PUT', `/assets/${p.assetId}`, { key: p.key, body: { expiresAfterSeconds: 86_400 } }), 200);
    const [c] = p.customers;
    const h = await hold(p, { amount: 12, from: p.system.id, to: c.id, matureIn: 60 });
    const maturesAt = await dueNow(h.id);
    await sweep();
    const { lots } = await expectStatus(t.request('GET', `/wallets/${c.id}/lots?currency=${p.symbol}`, { key: p.key }), 200);
    expect(lots).toEqual([{ amount: 12, remaining: 12, created_at: maturesAt, expires_at: new Date(Date.parse(maturesAt) + 86_400_000).toISOString() }]);
  });
});

describe('a restart across a maturity', () => {
  it('matures on the instance started after the one that created it stopped', async () => {
    const first = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 500 } });
    const p = await fundedProject(first, { owner: 'mature-restart' }, { systemBalance: 100 });
    const { hold: h } = await expectStatus(first.request('POST', '/holds', { key: p.key, body: { amount: 9, currency: p.symbol, from: p.system.id, to: p.customers[0].id, projectId: p.projectId, matureIn: 60 } }), 201);
    await first.close(); // stopped with the hold pending
    const second = await startTestApp({ databaseUrl: first.databaseUrl, lotSweep: { intervalMs: 0, batchSize: 500 } });
    try {
      await second.db.query(`UPDATE holds SET matures_at = clock_timestamp(), maturity_due_at = clock_timestamp() WHERE id = $1`, [h.id]);
      expect((await second.app.services.expirySweeper.sweepOnce()).matured).toBe(1);
      const after = await expectStatus(second.request('GET', `/holds/${h.id}`, { key: p.key }), 200);
      expect(after.hold).toMatchObject({ status: 'captured', capturedAmount: 9 });
    } finally {
      await second.close();
    }
  });
});
