import { startTestApp, type TestApp } from '../support/test-app.js';
import { openLocker, type Locker } from '../support/locks.js';
import { fundedProject, type FundedProject } from '../support/fixtures.js';

/**
 * Dry runs (CONTRACT §24): `?dryRun=true` on the six posting routes runs every check against the
 * current state and answers what the real call would (200, `dryRun: true`), writing nothing.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const post = (e: FundedProject, path: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  t.request('POST', path, { key: e.key, headers, body: { projectId: e.projectId, ...body } });
const dry = (e: FundedProject, path: string, body: Record<string, unknown>, headers?: Record<string, string>) => post(e, `${path}?dryRun=true`, body, headers);

/** Everything a posting could write, as one comparable value. */
async function written(): Promise<unknown> {
  const [row] = await t.db.query(
    `SELECT (SELECT count(*) FROM transactions)::int AS transactions, (SELECT count(*) FROM holds)::int AS holds,
            (SELECT count(*) FROM events)::int AS events, (SELECT count(*) FROM idempotency_keys)::int AS idempotency,
            (SELECT count(*) FROM ledger_references)::int AS "references", (SELECT count(*) FROM lots)::int AS lots,
            (SELECT json_agg(json_build_array(wallet_id, asset_id, amount::text, held::text, tx_count) ORDER BY wallet_id, asset_id) FROM balances) AS balances,
            (SELECT json_agg(json_build_array(id, status, captured_amount::text) ORDER BY id) FROM holds) AS hold_states,
            (SELECT json_agg(json_build_array(id, reversed_amount::text) ORDER BY id) FROM transactions) AS reversed`,
  );
  return row;
}

/** A transaction as answered, less what differs between two postings of the same request. */
const shape = ({ id: _id, date: _date, ...rest }: Record<string, unknown>) => rest;
const holdShape = ({ id: _id, created_at: _c, updated_at: _u, expires_at: _e, transactionId: _t, ...rest }: Record<string, unknown>) => rest;

async function historyIds(e: FundedProject, walletId: string): Promise<string[]> {
  const res = await t.request('GET', `/transactions?walletId=${walletId}&limit=100`, { key: e.key });
  return res.body.transactions.map((x: { id: string }) => x.id);
}

describe('POST /transactions?dryRun=true', () => {
  let e: FundedProject;
  beforeAll(async () => {
    e = await fundedProject(t, { owner: 'dry-transfer' }, { fund: 100 });
  });

  it('answers 200 with the real answer and dryRun: true, writes nothing, and its id is stored nowhere', async () => {
    const [a, b] = e.customers;
    const body = { currency: e.symbol, from: a.id, to: b.address, amount: 12.5, reference: 'dry-1', metadata: { k: 'v' } };
    const before = await written();
    const res = await dry(e, '/transactions', body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ dryRun: true, transaction: expect.objectContaining({ amount: 12.5, balance: 87.5, from: a.address, to: b.address, reference: 'dry-1' }) });
    expect(await written()).toEqual(before);
    const id = res.body.transaction.id;
    expect(await historyIds(e, a.id)).not.toContain(id);
    expect((await post(e, `/transactions/${id}/reverse`, {})).status).toBe(404);
    // the reference was never taken: the real call with it posts, with the same answer
    const real = await post(e, '/transactions', body);
    expect(real.status).toBe(201);
    expect(real.body.dryRun).toBeUndefined();
    expect(shape(real.body.transaction)).toEqual(shape(res.body.transaction));
    expect(real.body.transaction.id).not.toBe(id);
  });

  it('refuses exactly as the real call: insufficient_funds, wallet_inactive, not_found, a taken reference', async () => {
    const [a, b] = e.customers;
    const other = await fundedProject(t, { owner: 'dry-transfer-other' }, { customers: 1 });
    await post(e, '/transactions', { currency: e.symbol, from: a.id, to: b.id, amount: 1, reference: 'taken' });
    const cases = [
      { currency: e.symbol, from: a.id, to: b.id, amount: 10_000 },
      { currency: e.symbol, from: a.id, to: other.customers[0].id, amount: 1 },
      { currency: e.symbol, from: a.id, to: b.id, amount: 1, reference: 'taken' },
      { currency: e.symbol, from: a.id, to: b.id, amount: 1.001 },
    ];
    const before = await written();
    for (const body of cases) {
      const dryRun = await dry(e, '/transactions', body);
      const real = await post(e, '/transactions', body);
      expect(dryRun.status).toBeGreaterThanOrEqual(400);
      expect({ status: dryRun.status, body: dryRun.body }).toEqual({ status: real.status, body: real.body });
    }
    expect(await written()).toEqual(before);
    expect((await t.request('PUT', `/wallets/status/${b.id}`, { key: e.key, body: { projectId: e.projectId, status: 'suspended' } })).status).toBe(200);
    const body = { currency: e.symbol, from: a.id, to: b.id, amount: 1 };
    const dryRun = await dry(e, '/transactions', body);
    expect(dryRun.body.code).toBe('wallet_inactive');
    expect(dryRun.body).toEqual((await post(e, '/transactions', body)).body);
    await t.request('PUT', `/wallets/status/${b.id}`, { key: e.key, body: { projectId: e.projectId, status: 'active' } });
  });
});

describe('POST /transactions/seed?dryRun=true', () => {
  it('answers the seed the real call posts, and writes nothing', async () => {
    const e = await fundedProject(t, { owner: 'dry-seed' });
    const body = { currency: e.symbol, to: e.system.id, amount: 50 };
    const before = await written();
    const res = await dry(e, '/transactions/seed', body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ dryRun: true, transaction: [expect.objectContaining({ amount: 50, balance: 1050, from: '@mint' })] });
    expect(await written()).toEqual(before);
    expect(await historyIds(e, e.system.id)).not.toContain(res.body.transaction[0].id);
    const real = await post(e, '/transactions/seed', body);
    expect(real.status).toBe(201);
    expect(shape(real.body.transaction[0])).toEqual(shape(res.body.transaction[0]));
    const refused = { currency: e.symbol, to: e.customers[0].id, amount: 1 };
    expect((await dry(e, '/transactions/seed', refused)).body).toEqual((await post(e, '/transactions/seed', refused)).body);
  });
});

describe('POST /transactions/batch?dryRun=true', () => {
  it('runs every leg in order (a later leg spends what an earlier one credited) and writes nothing', async () => {
    const e = await fundedProject(t, { owner: 'dry-batch' }, { fund: 10 });
    const [a, b] = e.customers;
    const body = {
      transfers: [
        { currency: e.symbol, from: e.system.id, to: a.id, amount: 30 },
        { currency: e.symbol, from: a.id, to: b.id, amount: 35, reference: 'leg-2' },
      ],
    };
    const before = await written();
    const res = await dry(e, '/transactions/batch', body);
    expect(res.status).toBe(200);
    expect(res.body.dryRun).toBe(true);
    expect(res.body.transactions.map((x: { balance: number }) => x.balance)).toEqual([950, 5]);
    expect(await written()).toEqual(before);
    const real = await post(e, '/transactions/batch', body);
    expect(real.status).toBe(201);
    expect(real.body.transactions.map(shape)).toEqual(res.body.transactions.map(shape));
    const over = { transfers: [{ currency: e.symbol, from: a.id, to: b.id, amount: 1 }, { currency: e.symbol, from: a.id, to: b.id, amount: 1000 }] };
    const dryRefusal = await dry(e, '/transactions/batch', over);
    expect(dryRefusal.body).toMatchObject({ code: 'insufficient_funds', details: { index: 1 } });
    expect({ status: dryRefusal.status, body: dryRefusal.body }).toEqual(await post(e, '/transactions/batch', over).then((r) => ({ status: r.status, body: r.body })));
  });
});

describe('POST /transactions/{id}/reverse?dryRun=true', () => {
  it('answers the reversal the real call posts, leaves the cap untouched, and refuses past it as the real call', async () => {
    const e = await fundedProject(t, { owner: 'dry-reverse' }, { fund: 100 });
    const [a, b] = e.customers;
    const original = (await post(e, '/transactions', { currency: e.symbol, from: a.id, to: b.id, amount: 30 })).body.transaction;
    const before = await written();
    const res = await dry(e, `/transactions/${original.id}/reverse`, { amount: 10, reference: 'refund-1' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ dryRun: true, transaction: expect.objectContaining({ amount: 10, balance: 120, reverses: original.id, reference: 'refund-1' }) });
    expect(await written()).toEqual(before);
    expect((await post(e, `/transactions/${res.body.transaction.id}/reverse`, {})).status).toBe(404);
    // the whole amount is still reversible: a dry run of all of it answers 30
    expect((await dry(e, `/transactions/${original.id}/reverse`, {})).body.transaction.amount).toBe(30);
    const real = await post(e, `/transactions/${original.id}/reverse`, { amount: 10, reference: 'refund-1' });
    expect(real.status).toBe(201);
    expect(shape(real.body.transaction)).toEqual(shape(res.body.transaction));
    const over = await dry(e, `/transactions/${original.id}/reverse`, { amount: 25 });
    expect(over.body).toMatchObject({ code: 'conflict', details: { reversible: 20 } });
    expect({ status: over.status, body: over.body }).toEqual(await post(e, `/transactions/${original.id}/reverse`, { amount: 25 }).then((r) => ({ status: r.status, body: r.body })));
    const foreign = await fundedProject(t, { owner: 'dry-reverse-other' });
    const notYours = await t.request('POST', `/transactions/${original.id}/reverse?dryRun=true`, { key: foreign.key, body: { projectId: foreign.projectId } });
    expect(notYours.status).toBe(404);
    expect(notYours.body).toEqual((await t.request('POST', `/transactions/${original.id}/reverse`, { key: foreign.key, body: { projectId: foreign.projectId } })).body);
  });
});

describe('POST /holds?dryRun=true', () => {
  it('answers the hold the real call creates, reserves nothing, and its id is no hold', async () => {
    const e = await fundedProject(t, { owner: 'dry-hold' }, { fund: 100 });
    const [a, b] = e.customers;
    const body = { currency: e.symbol, from: a.id, to: b.id, amount: 40, expiresIn: 60, reference: 'h-1' };
    const before = await written();
    const res = await dry(e, '/holds', body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ dryRun: true, hold: expect.objectContaining({ amount: 40, status: 'pending', from: a.address, to: b.address, reference: 'h-1' }) });
    expect(await written()).toEqual(before);
    const id = res.body.hold.id;
    expect((await t.request('GET', `/holds/${id}`, { key: e.key })).status).toBe(404);
    expect((await post(e, `/holds/${id}/capture`, {})).status).toBe(404);
    expect((await t.request('GET', `/holds?projectId=${e.projectId}`, { key: e.key })).body.holds).toEqual([]);
    const real = await post(e, '/holds', body);
    expect(real.status).toBe(201);
    expect(holdShape(real.body.hold)).toEqual(holdShape(res.body.hold));
    // 60 of 100 are available now: a dry run of 61 is refused as the real call is
    const over = { currency: e.symbol, from: a.id, to: b.id, amount: 61 };
    const dryRefusal = await dry(e, '/holds', over);
    expect(dryRefusal.body.code).toBe('insufficient_funds');
    expect({ status: dryRefusal.status, body: dryRefusal.body }).toEqual(await post(e, '/holds', over).then((r) => ({ status: r.status, body: r.body })));
  });
});

describe('POST /holds/{id}/capture?dryRun=true', () => {
  it('answers the capture the real call makes, and the hold stays pending', async () => {
    const e = await fundedProject(t, { owner: 'dry-capture' }, { fund: 100 });
    const [a, b] = e.customers;
    const hold = (await post(e, '/holds', { currency: e.symbol, from: a.id, to: b.id, amount: 40 })).body.hold;
    const before = await written();
    const res = await dry(e, `/holds/${hold.id}/capture`, { amount: 15 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      dryRun: true,
      transaction: expect.objectContaining({ amount: 15, balance: 85 }),
      hold: expect.objectContaining({ id: hold.id, status: 'captured', capturedAmount: 15, transactionId: res.body.transaction.id }),
    });
    expect(await written()).toEqual(before);
    expect((await t.request('GET', `/holds/${hold.id}`, { key: e.key })).body.hold).toMatchObject({ status: 'pending', capturedAmount: 0, transactionId: null });
    expect(await historyIds(e, a.id)).not.toContain(res.body.transaction.id);
    const real = await post(e, `/holds/${hold.id}/capture`, { amount: 15 });
    expect(real.status).toBe(201);
    expect(shape(real.body.transaction)).toEqual(shape(res.body.transaction));
    expect(holdShape(real.body.hold)).toEqual(holdShape(res.body.hold));
    const dryAgain = await dry(e, `/holds/${hold.id}/capture`, {});
    expect(dryAgain.body.code).toBe('hold_not_pending');
    expect({ status: dryAgain.status, body: dryAgain.body }).toEqual(await post(e, `/holds/${hold.id}/capture`, {}).then((r) => ({ status: r.status, body: r.body })));
  });
});

describe('the dryRun parameter', () => {
  let e: FundedProject;
  beforeAll(async () => {
    e = await fundedProject(t, { owner: 'dry-param' }, { fund: 100 });
  });

  it('is true or false; any other value is a 400 on each of the six routes, before anything runs', async () => {
    const [a, b] = e.customers;
    const transfer = { currency: e.symbol, from: a.id, to: b.id, amount: 1 };
    const original = (await post(e, '/transactions', transfer)).body.transaction;
    const hold = (await post(e, '/holds', transfer)).body.hold;
    const routes: [string, Record<string, unknown>][] = [
      ['/transactions', transfer],
      ['/transactions/seed', { currency: e.symbol, to: e.system.id, amount: 1 }],
      ['/transactions/batch', { transfers: [transfer] }],
      [`/transactions/${original.id}/reverse`, {}],
      ['/holds', transfer],
      [`/holds/${hold.id}/capture`, {}],
    ];
    const before = await written();
    for (const [path, body] of routes) {
      for (const value of ['yes', 'TRUE', '1', '']) {
        const res = await post(e, `${path}?dryRun=${value}`, body);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 'validation_error', details: { field: 'dryRun' } });
      }
      expect((await post(e, `${path}?dryRun=true`, body)).status).toBe(200);
    }
    expect(await written()).toEqual(before);
    expect((await post(e, '/transactions?dryRun=false', transfer)).status).toBe(201);
  });

  it('ignores Idempotency-Key: nothing is stored or replayed, and the real call with that key and another body posts', async () => {
    const [a, b] = e.customers;
    const before = await written();
    const first = await dry(e, '/transactions', { currency: e.symbol, from: a.id, to: b.id, amount: 2 }, { 'idempotency-key': 'dry-key-1' });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await written()).toEqual(before);
    const real = await post(e, '/transactions', { currency: e.symbol, from: a.id, to: b.id, amount: 3 }, { 'idempotency-key': 'dry-key-1' });
    expect(real.status).toBe(201);
    expect(real.body.transaction.amount).toBe(3);
    // a key already used by a real call: the dry run neither replays it nor answers key reuse
    const again = await dry(e, '/transactions', { currency: e.symbol, from: a.id, to: b.id, amount: 4 }, { 'idempotency-key': 'dry-key-1' });
    expect(again.status).toBe(200);
    expect(again.body.transaction.amount).toBe(4);
    expect(again.body.transaction.id).not.toBe(real.body.transaction.id);
    const invalid = await dry(e, '/transactions', { currency: e.symbol, from: a.id, to: b.id, amount: 4 }, { 'idempotency-key': 'x'.repeat(300) });
    expect(invalid.status).toBe(200);
  });

  it('stores nothing under Idempotency-Key on any of the six routes: the real call with the same key and body then posts, no replay', async () => {
    const f = await fundedProject(t, { owner: 'dry-key-same' }, { fund: 100 });
    const [a, b] = f.customers;
    const reversible = (await post(f, '/transactions', { currency: f.symbol, from: a.id, to: b.id, amount: 5 })).body.transaction.id;
    const pending = (await post(f, '/holds', { currency: f.symbol, from: a.id, to: b.id, amount: 5 })).body.hold.id;
    const calls: [string, Record<string, unknown>][] = [
      ['/transactions', { currency: f.symbol, from: a.id, to: b.id, amount: 1 }],
      ['/transactions/seed', { currency: f.symbol, to: f.system.id, amount: 1 }],
      ['/transactions/batch', { transfers: [{ currency: f.symbol, from: a.id, to: b.id, amount: 1 }] }],
      [`/transactions/${reversible}/reverse`, { amount: 1 }],
      ['/holds', { currency: f.symbol, from: a.id, to: b.id, amount: 1 }],
      [`/holds/${pending}/capture`, {}],
    ];
    for (const [path, body] of calls) {
      const headers = { 'idempotency-key': `dry-same-${path}` };
      const stored = async () => (await t.db.query(`SELECT 1 FROM idempotency_keys WHERE key = $1`, [headers['idempotency-key']])).length;
      expect((await dry(f, path, body, headers)).status).toBe(200);
      expect(await stored()).toBe(0);
      const real = await post(f, path, body, headers);
      expect({ path, status: real.status, replayed: real.headers.get('idempotent-replayed') }).toEqual({ path, status: 201, replayed: null });
      expect(await stored()).toBe(1);
    }
  });

  it('counts toward the daily call quota', async () => {
    const [a, b] = e.customers;
    await t.app.services.calls.flush();
    const calls = async () => Number((await t.db.query<{ calls: string }>(`SELECT calls FROM api_call_counts WHERE owner_id = 'dry-param'`))[0]?.calls ?? 0);
    const before = await calls();
    await dry(e, '/transactions', { currency: e.symbol, from: a.id, to: b.id, amount: 1 });
    await dry(e, '/transactions', { currency: e.symbol, from: a.id, to: b.id, amount: 1_000_000 });
    await t.app.services.calls.flush();
    expect(await calls()).toBe(before + 2);
  });

  it('is not counted in ledger_postings_total nor in the commits', async () => {
    const [a, b] = e.customers;
    const scrape = async () => (await fetch(`${t.baseUrl}/metrics`)).text();
    const series = (text: string) => text.split('\n').filter((l) => l.startsWith('ledger_postings_total') || l.startsWith('ledger_posting_batch_size_count'));
    const before = series(await scrape());
    expect((await dry(e, '/transactions', { currency: e.symbol, from: a.id, to: b.id, amount: 1 })).status).toBe(200);
    expect((await dry(e, '/transactions', { currency: e.symbol, from: a.id, to: b.id, amount: 1_000_000 })).status).toBe(409);
    expect((await dry(e, '/transactions/batch', { transfers: [{ currency: e.symbol, from: a.id, to: b.id, amount: 1 }] })).status).toBe(200);
    expect(series(await scrape())).toEqual(before);
  });
});

describe('a dry run beside real postings', () => {
  let locker: Locker;
  beforeAll(async () => {
    locker = await openLocker(t.databaseUrl);
  });
  afterAll(() => locker.end());

  /** Waits until `n` backends of this database wait on a lock (PostgreSQL announces no lock wait). */
  async function waiters(n: number): Promise<void> {
    for (;;) {
      // the locker is inside a transaction, which would otherwise keep reading its first statistics snapshot
      await locker.query('SELECT pg_stat_clear_snapshot()');
      const [row] = await locker.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
      if (row.n >= n) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  it('never shares their commit: racing on one wallet, the real postings commit and the dry run rolls back alone', async () => {
    const e = await fundedProject(t, { owner: 'dry-race' }, { fund: 100 });
    const [a, b] = e.customers;
    const transfer = (amount: number) => ({ currency: e.symbol, from: a.id, to: b.id, amount });
    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM wallets WHERE id = $1 FOR UPDATE', [a.id]);
    // the first real posting is in the database, waiting on the wallet; the second queues behind it
    const first = post(e, '/transactions', transfer(10));
    await waiters(1);
    const second = post(e, '/transactions', transfer(20));
    const dryRun = dry(e, '/transactions', transfer(5));
    await waiters(2);
    await locker.query('COMMIT');
    const [r1, r2, d] = await Promise.all([first, second, dryRun]);
    expect([r1.status, r2.status, d.status]).toEqual([201, 201, 200]);
    // the dry run saw the wallet as it was when it got it: before or after either real posting
    expect([95, 85, 65]).toContain(d.body.transaction.balance);
    const balance = await t.request('GET', `/transactions?walletId=${a.id}&limit=100`, { key: e.key });
    expect(balance.body.balance.balance).toBe(70);
    const ids = balance.body.transactions.map((x: { id: string }) => x.id);
    expect(ids).toEqual(expect.arrayContaining([r1.body.transaction.id, r2.body.transaction.id]));
    expect(ids).not.toContain(d.body.transaction.id);
  });
});
