import { DATES, datedHistory } from '../support/dated-history.js';
import { expectStatus, UNKNOWN_UUID, type FundedProject, type WalletRef } from '../support/fixtures.js';
import { startTestApp, type HttpResult, type TestApp } from '../support/test-app.js';
import { statementsOf } from '../support/statements.js';

/** Balances and histories as of a time (CONTRACT §14 and its clarification), over REST, on test/support/dated-history.ts. */
let t: TestApp;
let key: string;
let otherKey: string;
let system: WalletRef;
let c0: WalletRef;
let c1: WalletRef;
let ids: string[];
let project: FundedProject;
const projectId = () => project.projectId;

beforeAll(async () => {
  t = await startTestApp();
  key = await t.issueKey('as-of-owner', 'enterprise');
  otherKey = await t.issueKey('as-of-intruder', 'pro');
  ({ project, system, c0, c1, ids } = await datedHistory(t, key));
});
afterAll(() => t.close());

const walletAt = (id: string, asOf: string, k = key): Promise<HttpResult> => t.request('GET', `/wallets/${id}?asOf=${encodeURIComponent(asOf)}`, { key: k });
const historyAt = (query: Record<string, string | number>, k = key): Promise<HttpResult> =>
  t.request('GET', `/transactions?${new URLSearchParams(Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]))}`, { key: k });

/** The wallet's balances as `{symbol: balance}` and its transactions as `[amount, currency, balance, date]`. */
async function stateAt(id: string, asOf: string): Promise<{ balances: Record<string, number>; transactions: [number, string, number, string][] }> {
  const wallet = await expectStatus(walletAt(id, asOf), 200);
  return {
    balances: Object.fromEntries(wallet.balance.map((b: { currency: string; balance: number }) => [b.currency, b.balance])),
    transactions: wallet.transactions.map((tx: any) => [tx.amount, tx.currency, tx.balance, tx.date]),
  };
}

describe('GET /wallets/{id}?asOf=', () => {
  it('answers the wallet as it was: balances after the last transaction at or before the instant, its transactions until then', async () => {
    expect(await stateAt(c0.id, '2026-01-03T00:00:00.000Z')).toEqual({
      balances: { PTS: 120, GEM: 0 },
      transactions: [
        [30, 'PTS', 120, DATES[4]],
        [50, 'PTS', 150, DATES[2]],
        [100, 'PTS', 100, DATES[1]],
      ],
    });
    expect(await stateAt(c0.id, '2026-01-03T23:59:59.999Z')).toEqual({
      balances: { PTS: 120, GEM: 4 },
      transactions: [
        [4, 'GEM', 4, DATES[5]],
        [30, 'PTS', 120, DATES[4]],
        [50, 'PTS', 150, DATES[2]],
        [100, 'PTS', 100, DATES[1]],
      ],
    });
  });

  it('includes a transaction dated exactly at the instant, not one a millisecond later', async () => {
    expect((await stateAt(c0.id, '2026-01-02T10:00:00.122Z')).balances).toEqual({ PTS: 0, GEM: 0 });
    expect((await stateAt(c0.id, '2026-01-02T10:00:00.123Z')).balances).toEqual({ PTS: 100, GEM: 0 });
    expect((await stateAt(c0.id, '2026-01-02T10:00:00.124Z')).balances).toEqual({ PTS: 150, GEM: 0 });
  });

  it('truncates digits finer than a millisecond', async () => {
    expect((await stateAt(c0.id, '2026-01-02T10:00:00.123999Z')).balances).toEqual({ PTS: 100, GEM: 0 });
  });

  it('reads any offset as the same instant (and a "+" the query string turned into a space)', async () => {
    const utc = await stateAt(c0.id, '2026-01-02T10:00:00.124Z');
    expect(await stateAt(c0.id, '2026-01-02T12:00:00.124+02:00')).toEqual(utc);
    expect(await stateAt(c0.id, '2026-01-02T04:30:00.124-0530')).toEqual(utc);
    const unescaped = await t.request('GET', `/wallets/${c0.id}?asOf=2026-01-02T12:00:00.124+02:00`, { key: key });
    expect(unescaped.status).toBe(200);
    expect(unescaped.body.balance.find((b: { currency: string }) => b.currency === 'PTS').balance).toBe(150);
  });

  it('answers zero balances and no transactions from the instant the wallet was created', async () => {
    expect(await stateAt(c0.id, '2026-01-01T00:00:00.000Z')).toEqual({ balances: { PTS: 0, GEM: 0 }, transactions: [] });
  });

  it('answers the present state for now, and the shape of the present read without holds', async () => {
    const [now, present] = await Promise.all([expectStatus(walletAt(c0.id, new Date().toISOString()), 200), expectStatus(t.request('GET', `/wallets/${c0.id}`, { key: key }), 200)]);
    expect(now).toEqual({ ...present, balance: present.balance.map(({ account, currency, balance }: any) => ({ account, currency, balance })) });
    for (const entry of now.balance) expect(Object.keys(entry).sort()).toEqual(['account', 'balance', 'currency']);
    expect(now.balance.find((b: { currency: string }) => b.currency === 'PTS').balance).toBe(127);
  });

  it('costs the statements of the present read (the wallet, its balances, its transactions)', async () => {
    const [asOf, present] = [await walletAt(c0.id, '2026-01-03T00:00:00.000Z'), await t.request('GET', `/wallets/${c0.id}`, { key: key })];
    expect([statementsOf(asOf), statementsOf(present)]).toEqual([3, 3]);
  });

  it.each([
    ['a time in the future', () => new Date(Date.now() + 60_000).toISOString(), /future/],
    ['a time before the wallet existed', () => '2026-01-01T23:59:59.999Z', /before the wallet existed/],
    ['no offset', () => '2026-01-03T00:00:00', /ISO 8601/],
    ['a date alone', () => '2026-01-03', /ISO 8601/],
    ['an impossible date', () => '2026-02-30T00:00:00Z', /ISO 8601/],
    ['words', () => 'yesterday', /ISO 8601/],
    ['an empty value', () => '', /ISO 8601/],
  ])('refuses %s with 400 validation_error naming asOf', async (_what, asOf, problem) => {
    const res = await walletAt(c1.id, asOf());
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', details: { field: 'asOf' } });
    expect(res.body.message).toMatch(problem);
  });

  it('refuses an unknown query parameter', async () => {
    const res = await t.request('GET', `/wallets/${c0.id}?asof=2026-01-03T00:00:00Z`, { key: key });
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe('asof');
  });

  it("answers 404 for another owner's wallet and for an unknown one, as without asOf", async () => {
    for (const [id, caller] of [[c0.id, otherKey], [UNKNOWN_UUID, key]]) {
      const res = await walletAt(id, '2026-01-03T00:00:00.000Z', caller);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'not_found' });
    }
    // before the wallet existed says nothing about another owner's wallet
    expect((await walletAt(c1.id, '2026-01-01T00:00:00.000Z', otherKey)).status).toBe(404);
  });

  it('checks the instant (400) before existence (404): a future instant on an unknown wallet is 400', async () => {
    expect((await walletAt(UNKNOWN_UUID, new Date(Date.now() + 60_000).toISOString())).status).toBe(400);
  });
});

describe('GET /transactions?asOf=', () => {
  it('answers the balance, the total and the page of the history as of the instant', async () => {
    const body = await expectStatus(historyAt({ walletId: c0.id, asOf: '2026-01-03T00:00:00.000Z' }), 200);
    expect(body).toEqual({
      balance: { account: c0.address, currency: 'PTS', balance: 120 },
      pagination: { page: 1, limit: 20, total: 3, totalPages: 1 },
      transactions: [
        { id: ids[4], amount: 30, currency: 'PTS', balance: 120, from: c0.address, to: system.address, date: DATES[4], reverses: null, reversedAmount: 0, reference: null, metadata: {} },
        { id: ids[2], amount: 50, currency: 'PTS', balance: 150, from: system.address, to: c0.address, date: DATES[2], reverses: null, reversedAmount: 0, reference: null, metadata: {} },
        { id: ids[1], amount: 100, currency: 'PTS', balance: 100, from: system.address, to: c0.address, date: DATES[1], reverses: null, reversedAmount: 0, reference: null, metadata: {} },
      ],
    });
  });

  it('pages within the cut', async () => {
    const page2 = await expectStatus(historyAt({ walletId: c0.id, asOf: '2026-01-03T00:00:00.000Z', limit: 2, page: 2 }), 200);
    expect(page2.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    expect(page2.transactions.map((tx: { id: string }) => tx.id)).toEqual([ids[1]]);
    const beyond = await expectStatus(historyAt({ walletId: c0.id, asOf: '2026-01-03T00:00:00.000Z', limit: 2, page: 3 }), 200);
    expect(beyond.transactions).toEqual([]);
  });

  it('takes currency, addresses and offsets like the present history', async () => {
    const gem = await expectStatus(historyAt({ walletId: system.address, projectId: projectId(), currency: 'GEM', asOf: '2026-01-03T13:00:00+01:00' }), 200);
    expect(gem.balance).toEqual({ account: system.address, currency: 'GEM', balance: 6 });
    expect(gem.transactions.map((tx: any) => [tx.amount, tx.balance])).toEqual([[4, 6], [10, 10]]);
    expect(gem.pagination.total).toBe(2);
    const pts = await expectStatus(historyAt({ walletId: system.id, asOf: '2026-01-02T10:00:00.124Z' }), 200);
    expect([pts.balance.balance, pts.pagination.total, pts.transactions.map((tx: any) => tx.balance)]).toEqual([850, 3, [850, 900, 1000]]);
  });

  it('answers an empty history before the first transaction', async () => {
    const body = await expectStatus(historyAt({ walletId: c0.id, asOf: '2026-01-02T10:00:00.122Z' }), 200);
    expect(body).toEqual({ balance: { account: c0.address, currency: 'PTS', balance: 0 }, pagination: { page: 1, limit: 20, total: 0, totalPages: 0 }, transactions: [] });
  });

  it('keeps the running balance chain: the newest balance is the balance, each step is its amount', async () => {
    for (const asOf of DATES.slice(1)) {
      const { balance, transactions, pagination } = await expectStatus(historyAt({ walletId: c0.id, asOf, limit: 100 }), 200);
      expect(pagination.total).toBe(transactions.length);
      if (transactions.length) expect(transactions[0].balance).toBe(balance.balance);
      for (const [i, tx] of transactions.entries()) {
        const before = transactions[i + 1]?.balance ?? 0;
        expect(tx.balance - before).toBe(tx.to === c0.address ? tx.amount : -tx.amount);
        expect(tx.date <= asOf).toBe(true);
      }
    }
  });

  it.each([
    ['in the future', 400, () => ({ walletId: c0.id, asOf: new Date(Date.now() + 60_000).toISOString() })],
    ['before the wallet existed', 400, () => ({ walletId: c1.id, asOf: '2026-01-01T12:00:00Z' })],
    ['malformed', 400, () => ({ walletId: c0.id, asOf: '2026-01-03 00:00:00' })],
    ["on another owner's wallet", 404, () => ({ walletId: c0.id, asOf: '2026-01-03T00:00:00Z', key: otherKey })],
    ["on another owner's wallet by address", 404, () => ({ walletId: c0.address, projectId: projectId(), asOf: '2026-01-03T00:00:00Z', key: otherKey })],
    ['in a currency the project lacks', 404, () => ({ walletId: c0.id, currency: 'NOPE', asOf: '2026-01-03T00:00:00Z' })],
  ])('answers %s with %d', async (_what, status, query) => {
    const { key, ...params } = query() as Record<string, string> & { key?: string };
    const res = await historyAt(params, key ?? key);
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body.details.field).toBe('asOf');
  });
});
