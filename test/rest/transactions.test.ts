import { startTestApp, type TestApp } from '../support/test-app.js';
import { statementsOf } from '../support/statements.js';
import { fundedProject, ISO_MS, minorBalances, transactionCount, UUID_RE as UUID, type FundedProject } from '../support/fixtures.js';

let t: TestApp;
let e: FundedProject;
beforeAll(async () => {
  t = await startTestApp();
  e = await fundedProject(t, { owner: 'ledger-owner' }, { customers: 3, systemBalance: 1000, fund: 100 });
});
afterAll(() => t.close());

const transfer = (body: Record<string, unknown>, key = e.key, headers?: Record<string, string>) =>
  t.request('POST', '/transactions', { key, body: { currency: e.symbol, projectId: e.projectId, ...body }, headers });

describe('POST /transactions', () => {
  it('moves money and answers the transaction with the sender’s resulting balance', async () => {
    const [a, b] = e.customers;
    const res = await transfer({ amount: 12.5, from: a.id, to: b.address });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      transaction: { id: expect.stringMatching(UUID), amount: 12.5, currency: 'PTS', balance: 87.5, from: a.address, to: b.address, date: expect.stringMatching(ISO_MS), reverses: null, reversedAmount: 0, reference: null, metadata: {} },
    });
    const balances = await minorBalances(t, e.projectId);
    expect(balances.get(a.id)).toBe(8750n);
    expect(balances.get(b.id)).toBe(11250n);
    await transfer({ amount: 12.5, from: b.id, to: a.id });
  });

  it.each([
    ['an unknown field', { amount: 1, extra: true }, 'extra'],
    ['a missing amount', { amount: undefined }, 'amount'],
    ['a string amount', { amount: '1' }, 'amount'],
    ['a zero amount', { amount: 0 }, 'amount'],
    ['a negative amount', { amount: -1 }, 'amount'],
    ['1.005 with 2 fractions', { amount: 1.005 }, 'amount'],
    ['more than 2^53-1 minor units', { amount: 90071992547409.92 }, 'amount'],
    ['a malformed projectId', { amount: 1, projectId: 'one' }, 'projectId'],
    ['a projectId out of the column range', { amount: 1, projectId: 2 ** 31 }, 'projectId'],
  ])('refuses %s with 400 validation_error naming the field', async (_name, body, field) => {
    const before = await transactionCount(t);
    const res = await transfer({ from: e.customers[0].id, to: e.customers[1].id, ...body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(JSON.stringify(res.body.details)).toContain(field);
    expect(await transactionCount(t)).toBe(before);
  });

  it('refuses a transfer to the same wallet (by id and by address)', async () => {
    const [a] = e.customers;
    const res = await transfer({ amount: 1, from: a.id, to: a.address });
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe('to');
  });

  it.each([
    ['an unknown wallet', { from: 'nobody' }],
    ['an unknown currency', { currency: 'NOPE' }],
    ['an unknown project', { projectId: 999999 }],
  ])('answers 404 not_found for %s', async (_name, body) => {
    const res = await transfer({ amount: 1, from: e.customers[0].id, to: e.customers[1].id, ...body });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('answers 404 to another owner, exactly like a missing project', async () => {
    const stranger = await t.issueKey('stranger');
    const res = await transfer({ amount: 1, from: e.customers[0].id, to: e.customers[1].id }, stranger);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('refuses an overdraft with 409 insufficient_funds and writes nothing', async () => {
    const before = { balances: await minorBalances(t, e.projectId), count: await transactionCount(t) };
    const res = await transfer({ amount: 100.01, from: e.customers[0].id, to: e.customers[1].id });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'insufficient_funds', message: expect.any(String), details: {} });
    expect(await minorBalances(t, e.projectId)).toEqual(before.balances);
    expect(await transactionCount(t)).toBe(before.count);
  });

  it('refuses a suspended sender or receiver with 409 wallet_inactive', async () => {
    const [a, b] = e.customers;
    const suspend = await t.request('PUT', `/wallets/status/${b.id}`, { key: e.key, body: { projectId: e.projectId, status: 'suspended' } });
    expect(suspend.status).toBe(200);
    for (const [from, to] of [[a, b], [b, a]]) {
      const res = await transfer({ amount: 1, from: from.id, to: to.id });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('wallet_inactive');
    }
    await t.request('PUT', `/wallets/status/${b.id}`, { key: e.key, body: { projectId: e.projectId, status: 'active' } });
    expect((await transfer({ amount: 1, from: b.id, to: a.id })).status).toBe(201);
    await transfer({ amount: 1, from: a.id, to: b.id });
  });

  it('conserves the total across 25 parallel transfers on one wallet pair, none lost', async () => {
    const [a, b] = e.customers;
    const before = await minorBalances(t, e.projectId);
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => transfer({ amount: 0.37, from: i % 2 ? a.id : b.id, to: i % 2 ? b.id : a.id })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(25).fill(201));
    const after = await minorBalances(t, e.projectId);
    const sum = (m: Map<string, bigint>) => [...m.values()].reduce((x, y) => x + y, 0n);
    expect(sum(after)).toBe(sum(before));
    // 13 transfers b→a and 12 a→b of 37 minor units: a gains exactly 37.
    expect(after.get(a.id)! - before.get(a.id)!).toBe(37n);
    expect(after.get(b.id)! - before.get(b.id)!).toBe(-37n);
  });

  it('never lets parallel overdrafts take a balance below zero', async () => {
    const [, , c] = e.customers;
    const results = await Promise.all(Array.from({ length: 30 }, () => transfer({ amount: 10, from: c.id, to: e.customers[0].id })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'insufficient_funds')).toBe(true);
    expect((await minorBalances(t, e.projectId)).get(c.id)).toBe(0n);
  });
});

describe('POST /transactions/seed', () => {
  it('mints into a system wallet from @mint and answers a one-element array', async () => {
    const res = await t.request('POST', '/transactions/seed', { key: e.key, body: { amount: 5.25, currency: 'PTS', projectId: e.projectId, to: e.system.address } });
    expect(res.status).toBe(201);
    expect(res.body.transaction).toHaveLength(1);
    const [tx] = res.body.transaction;
    expect(tx).toEqual({ id: expect.stringMatching(UUID), amount: 5.25, currency: 'PTS', balance: expect.any(Number), from: '@mint', to: e.system.address, date: expect.stringMatching(ISO_MS), reverses: null, reversedAmount: 0, reference: null, metadata: {} });
    expect(BigInt(Math.round(tx.balance * 100))).toBe((await minorBalances(t, e.projectId)).get(e.system.id));
  });

  it('refuses a customer wallet as target with 400', async () => {
    const res = await t.request('POST', '/transactions/seed', { key: e.key, body: { amount: 1, currency: 'PTS', projectId: e.projectId, to: e.customers[0].id } });
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe('to');
  });

  it('refuses unknown fields, bad amounts and a missing target', async () => {
    for (const body of [{ amount: 1, currency: 'PTS', projectId: e.projectId, to: e.system.id, from: 'x' }, { amount: 0.001, currency: 'PTS', projectId: e.projectId, to: e.system.id }, { amount: 1, currency: 'PTS', projectId: e.projectId }]) {
      const res = await t.request('POST', '/transactions/seed', { key: e.key, body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_error');
    }
  });
});

describe('GET /transactions', () => {
  let h: FundedProject;
  beforeAll(async () => {
    h = await fundedProject(t, { owner: 'history-owner' }, { customers: 2, systemBalance: 100, fund: 0 });
    const [a, b] = h.customers;
    const steps: [string, string, number][] = [[h.system.id, a.id, 50], [a.id, b.id, 10.5], [b.id, a.id, 0.25], [a.id, b.id, 3], [h.system.id, b.id, 1]];
    for (const [from, to, amount] of steps) {
      const res = await t.request('POST', '/transactions', { key: h.key, body: { amount, currency: 'PTS', projectId: h.projectId, from, to } });
      expect(res.status).toBe(201);
    }
  });

  it('answers the balance and the history newest first, with a consistent running balance', async () => {
    const [a] = h.customers;
    const res = await t.request('GET', `/transactions?walletId=${a.id}`, { key: h.key });
    expect(res.status).toBe(200);
    expect(res.body.balance).toEqual({ account: a.address, currency: 'PTS', balance: 36.75, held: 0, available: 36.75, creditLimit: 0, incoming: 0 });
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 4, totalPages: 1 });
    const txs = res.body.transactions;
    expect(txs.map((x: { amount: number }) => x.amount)).toEqual([3, 0.25, 10.5, 50]);
    expect(txs[0].balance).toBe(36.75);
    for (let i = 0; i < txs.length - 1; i++) {
      const signed = Math.round((txs[i].to === a.address ? txs[i].amount : -txs[i].amount) * 100);
      expect(Math.round(txs[i].balance * 100) - Math.round(txs[i + 1].balance * 100)).toBe(signed);
    }
    expect(txs[txs.length - 1].balance).toBe(50);
  });

  it('pages with page and limit', async () => {
    const [a] = h.customers;
    const res = await t.request('GET', `/transactions?walletId=${a.address}&projectId=${h.projectId}&page=2&limit=3`, { key: h.key });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 2, limit: 3, total: 4, totalPages: 2 });
    expect(res.body.transactions.map((x: { amount: number }) => x.amount)).toEqual([50]);
    const beyond = await t.request('GET', `/transactions?walletId=${a.id}&page=9`, { key: h.key });
    expect(beyond.body.transactions).toEqual([]);
  });

  it.each([
    ['an address without projectId', (a: { address: string }) => `walletId=${a.address}`, 400],
    ['limit 0', (a: { id: string }) => `walletId=${a.id}&limit=0`, 400],
    ['limit 101', (a: { id: string }) => `walletId=${a.id}&limit=101`, 400],
    ['page 0', (a: { id: string }) => `walletId=${a.id}&page=0`, 400],
    ['page 1.5', (a: { id: string }) => `walletId=${a.id}&page=1.5`, 400],
    ['no walletId', () => ``, 400],
    ['an unknown parameter', (a: { id: string }) => `walletId=${a.id}&sort=asc`, 400],
    ['an unknown UUID', () => `walletId=00000000-0000-4000-8000-000000000000`, 404],
    ['an unknown currency', (a: { id: string }) => `walletId=${a.id}&currency=NOPE`, 404],
  ])('answers %s with %i', async (_name, query, status) => {
    const res = await t.request('GET', `/transactions?${query(h.customers[0])}`, { key: h.key });
    expect(res.status).toBe(status);
  });

  it('answers 404 to another owner', async () => {
    const res = await t.request('GET', `/transactions?walletId=${h.customers[0].id}`, { key: e.key });
    expect(res.status).toBe(404);
  });
});

describe('Idempotency-Key on POST /transactions', () => {
  it('replays the first answer and posts once', async () => {
    const [a, b] = e.customers;
    const headers = { 'idempotency-key': 'pay-1' };
    const before = await transactionCount(t);
    const first = await transfer({ amount: 1, from: a.id, to: b.id }, e.key, headers);
    const second = await transfer({ amount: 1, from: a.id, to: b.id }, e.key, headers);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(Object.keys(second.body)).toEqual(Object.keys(first.body)); // the same answer, keys in the same order
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await transactionCount(t)).toBe(before + 1);
    const reuse = await transfer({ amount: 2, from: a.id, to: b.id }, e.key, headers);
    expect(reuse.status).toBe(422);
    expect(reuse.body.code).toBe('idempotency_key_reuse');
    await transfer({ amount: 1, from: b.id, to: a.id });
  });

  it('replays a refusal and does not store a 400', async () => {
    const [a, b] = e.customers;
    const refused = await transfer({ amount: 1_000_000, from: a.id, to: b.id }, e.key, { 'idempotency-key': 'too-much' });
    const again = await transfer({ amount: 1_000_000, from: a.id, to: b.id }, e.key, { 'idempotency-key': 'too-much' });
    expect(refused.status).toBe(409);
    expect(again.status).toBe(409);
    expect(again.body).toEqual(refused.body);
    const invalid = await transfer({ amount: -1, from: a.id, to: b.id }, e.key, { 'idempotency-key': 'fix-me' });
    expect(invalid.status).toBe(400);
    const corrected = await transfer({ amount: 1, from: a.id, to: b.id }, e.key, { 'idempotency-key': 'fix-me' });
    expect(corrected.status).toBe(201);
    await transfer({ amount: 1, from: b.id, to: a.id });
  });

  it('does not post twice when the first attempt died after posting, before its answer was stored', async () => {
    const [a, b] = e.customers;
    const headers = { 'idempotency-key': 'crash-window' };
    const first = await transfer({ amount: 1, from: a.id, to: b.id }, e.key, headers);
    expect(first.status).toBe(201);
    // What a SIGKILL between the posting's commit and the answer's storage leaves: a claim without
    // an answer, whose lease has run out.
    await t.db.query(
      `UPDATE idempotency_keys SET status_code = NULL, response = NULL, locked_until = now() - interval '1 second' WHERE key = 'crash-window'`,
    );
    const before = await transactionCount(t);
    const retry = await transfer({ amount: 1, from: a.id, to: b.id }, e.key, headers);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(await transactionCount(t)).toBe(before);
    await transfer({ amount: 1, from: b.id, to: a.id });
  });

  it('scopes keys per owner', async () => {
    const other = await fundedProject(t, { owner: 'other-idem' }, { customers: 2, systemBalance: 10, fund: 1 });
    const headers = { 'idempotency-key': 'shared-key' };
    const mine = await transfer({ amount: 1, from: e.customers[0].id, to: e.customers[1].id }, e.key, headers);
    const theirs = await t.request('POST', '/transactions', { key: other.key, headers, body: { amount: 1, currency: 'PTS', projectId: other.projectId, from: other.customers[0].id, to: other.customers[1].id } });
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body.transaction.id).not.toBe(mine.body.transaction.id);
  });
});

describe('POST /transactions statements', () => {
  it('costs 2 SQL statements on the hot path (goal: at most 4)', async () => {
    const [a, b] = e.customers;
    const counts: number[] = [];
    for (const [from, to] of [[a, b], [b, a], [a, b]]) {
      const res = await transfer({ amount: 0.01, from: from.id, to: to.id });
      expect(res.status).toBe(201);
      counts.push(statementsOf(res));
    }
    // resolving the project, currency and wallets; then ledger_post (the one database transaction)
    expect(counts).toEqual([2, 2, 2]);
  });
});

describe('amounts the double would alter (16–17 significant digits) land exactly', () => {
  /** A JSON body with `amount` written as `amountText`, verbatim: JSON.stringify would round it first. */
  const rawBody = (body: Record<string, unknown>, amountText: string) => JSON.stringify({ ...body, amount: '@AMOUNT@' }).replace('"@AMOUNT@"', amountText);
  const post = (path: string, key: string, body: Record<string, unknown>, amountText: string, headers?: Record<string, string>) =>
    t.request('POST', path, { key, raw: rawBody(body, amountText), headers });

  let x: FundedProject;
  beforeAll(async () => {
    x = await fundedProject(t, { owner: 'exact-owner' }, { fractions: 8, customers: 2, systemBalance: 0, symbol: 'EXA' });
  });

  it('seeds and transfers 82241598.62827704 with 8 fractions to the last digit (the double is …703)', async () => {
    const seeded = await post('/transactions/seed', x.key, { currency: 'EXA', projectId: x.projectId, to: x.system.id }, '82241598.62827704');
    expect(seeded.status).toBe(201);
    expect((await minorBalances(t, x.projectId)).get(x.system.id)).toBe(8224159862827704n);

    const moved = await post('/transactions', x.key, { currency: 'EXA', projectId: x.projectId, from: x.system.id, to: x.customers[0].id }, '82241598.62827704');
    expect(moved.status).toBe(201);
    const balances = await minorBalances(t, x.projectId);
    expect(balances.get(x.system.id)).toBe(0n);
    expect(balances.get(x.customers[0].id)).toBe(8224159862827704n);
    const [row] = await t.db.query<{ amount: string }>(`SELECT amount::text FROM transactions WHERE id = $1`, [moved.body.transaction.id]);
    expect(row.amount).toBe('8224159862827704');
  });

  it('reads the same amount in exponent form exactly', async () => {
    const before = (await minorBalances(t, x.projectId)).get(x.customers[1].id) ?? 0n;
    const moved = await post('/transactions', x.key, { currency: 'EXA', projectId: x.projectId, from: x.customers[0].id, to: x.customers[1].id }, '8.224159862827704e7');
    expect(moved.status).toBe(201);
    expect((await minorBalances(t, x.projectId)).get(x.customers[1].id)! - before).toBe(8224159862827704n);
  });

  it('seeds 90071992547409.91 with 2 fractions (2^53-1 minor units) exactly, not .90', async () => {
    const y = await fundedProject(t, { owner: 'exact-owner-2' }, { fractions: 2, customers: 1, systemBalance: 0 });
    const seeded = await post('/transactions/seed', y.key, { currency: 'PTS', projectId: y.projectId, to: y.system.id }, '90071992547409.91');
    expect(seeded.status).toBe(201);
    expect((await minorBalances(t, y.projectId)).get(y.system.id)).toBe(9007199254740991n);
  });

  it.each([
    ['more decimals than the asset has', '0.000000001000000001'],
    ['a negative amount', '-82241598.62827704'],
    ['1e400', '1e400'],
    ['1e-400', '1e-400'],
    ['more than 2^53-1 minor units', '90071992547409.9100000000000001'],
  ])('refuses %s with 400 validation_error naming amount', async (_name, amountText) => {
    const before = await transactionCount(t);
    const res = await post('/transactions', x.key, { currency: 'EXA', projectId: x.projectId, from: x.customers[1].id, to: x.customers[0].id }, amountText);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(JSON.stringify(res.body.details)).toContain('amount');
    expect(await transactionCount(t)).toBe(before);
  });

  it('refuses an out-of-range exact amount before looking for the project (400, not 404)', async () => {
    const res = await post('/transactions', x.key, { currency: 'EXA', projectId: 999999, from: 'a', to: 'b' }, '-82241598.62827704');
    expect(res.status).toBe(400);
  });

  it('refuses a number the double would alter in any other numeric field, instead of changing it', async () => {
    const projects = await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM projects`);
    const res = await t.request('POST', '/projects', { key: x.key, raw: '{"name":"rate","supportExchangeRate":true,"exchangeRate":1.0000000000000001}' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(JSON.stringify(res.body.details)).toContain('exchangeRate');
    expect(await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM projects`)).toEqual(projects);

    const moved = await t.request('POST', '/transactions', {
      key: x.key,
      raw: `{"amount":1,"currency":"EXA","from":"${x.customers[1].id}","to":"${x.customers[0].id}","projectId":${x.projectId}.0000000000000001}`,
    });
    expect(moved.status).toBe(400);
    expect(JSON.stringify(moved.body.details)).toContain('projectId');
  });

  it('tells two such amounts apart under one Idempotency-Key (they are different requests)', async () => {
    const body = { currency: 'EXA', projectId: x.projectId, from: x.customers[1].id, to: x.customers[0].id };
    const headers = { 'idempotency-key': 'exact-digits' };
    const first = await post('/transactions', x.key, body, '0.00000001000000001', headers);
    expect(first.status).toBe(400); // 17 decimals: refused, not stored
    const ok = await post('/transactions', x.key, body, '12345678.12345678', headers);
    expect(ok.status).toBe(201);
    const other = await post('/transactions', x.key, body, '12345678.12345679', headers);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reuse');
    const same = await post('/transactions', x.key, body, '12345678.12345678', headers);
    expect(same.status).toBe(201);
    expect(same.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('GET /transactions page numbers (CONTRACT §7: page ≥ 1)', () => {
  it('answers a page past a million, beyond the data, with an empty page', async () => {
    const res = await t.request('GET', `/transactions?walletId=${e.customers[0].id}&page=1000001`, { key: e.key });
    expect(res.status).toBe(200);
    expect(res.body.transactions).toEqual([]);
    expect(res.body.pagination).toMatchObject({ page: 1000001, limit: 20 });
  });

  it('accepts page 2^31-1 (an empty page)', async () => {
    const res = await t.request('GET', `/transactions?walletId=${e.customers[0].id}&page=2147483647&limit=1`, { key: e.key });
    expect(res.status).toBe(200);
    expect(res.body.transactions).toEqual([]);
  });

  it('refuses page 0 and a page past 2^31-1 with 400', async () => {
    for (const page of ['0', '2147483648']) {
      const res = await t.request('GET', `/transactions?walletId=${e.customers[0].id}&page=${page}`, { key: e.key });
      expect(res.status).toBe(400);
      expect(res.body.details.field).toBe('page');
    }
  });
});
