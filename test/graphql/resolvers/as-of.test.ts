import { DATES, datedHistory } from '../../support/dated-history.js';
import { expectStatus, type FundedProject, type WalletRef } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { raw } from '../support/client.js';

/**
 * `Wallet.balances(asOf:)`, `Wallet.transactions(asOf:, …)` and `transactions(…, asOf:)` (CONTRACT
 * §14), on test/support/dated-history.ts: the same answers as REST, the same refusals.
 */
let t: TestApp;
let key: string;
let otherKey: string;
let project: FundedProject;
let system: WalletRef;
let c0: WalletRef;
let c1: WalletRef;
let ids: string[];

beforeAll(async () => {
  t = await startTestApp();
  key = await t.issueKey('graphql-as-of-owner', 'enterprise');
  otherKey = await t.issueKey('graphql-as-of-intruder', 'pro');
  ({ project, system, c0, c1, ids } = await datedHistory(t, key));
});
afterAll(() => t.close());

const WALLET = `query($id: ID!, $asOf: DateTime, $first: Int!, $after: String) {
  wallet(id: $id) {
    balances(asOf: $asOf) { account currency balance }
    transactions(asOf: $asOf, first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage hasPreviousPage endCursor }
      edges { node { id amount currency balance date } }
    }
  }
}`;

const walletAt = (id: string, asOf: string | null, first = 20, after: string | null = null, caller = key) => raw(t, caller, WALLET, { id, asOf, first, after });

describe('Wallet.balances(asOf:) and Wallet.transactions(asOf:)', () => {
  it('answer the wallet as it was, as REST does', async () => {
    for (const asOf of ['2026-01-02T10:00:00.123Z', '2026-01-03T00:00:00.000Z', '2026-01-03T23:59:59.999Z', new Date().toISOString()]) {
      const [res, rest] = await Promise.all([walletAt(c0.id, asOf), expectStatus(t.request('GET', `/wallets/${c0.id}?asOf=${asOf}`, { key }), 200)]);
      expect(res.body.errors).toBeUndefined();
      const wallet = res.body.data.wallet;
      expect(wallet.balances).toEqual(rest.balance.map((b: any) => ({ account: b.account, currency: b.currency, balance: String(b.balance) })));
      expect(wallet.transactions.edges.map((e: any) => [e.node.id, e.node.balance, e.node.date])).toEqual(rest.transactions.map((tx: any) => [tx.id, String(tx.balance), tx.date]));
      expect(wallet.transactions.totalCount).toBe(rest.transactions.length);
    }
  });

  it('include a transaction dated exactly at the instant (any offset), and truncate finer digits', async () => {
    const pts = async (asOf: string) => (await walletAt(c0.id, asOf)).body.data.wallet.balances.find((b: any) => b.currency === 'PTS').balance;
    expect(await pts('2026-01-02T10:00:00.122Z')).toBe('0');
    expect(await pts('2026-01-02T10:00:00.123Z')).toBe('100');
    expect(await pts('2026-01-02T10:00:00.123999Z')).toBe('100');
    expect(await pts('2026-01-02T12:00:00.124+02:00')).toBe('150');
  });

  it('page through the history as of the instant, with its total', async () => {
    const asOf = '2026-01-03T23:59:59.999Z';
    const first = (await walletAt(c0.id, asOf, 3)).body.data.wallet.transactions;
    expect(first.totalCount).toBe(4);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(first.edges.map((e: any) => e.node.id)).toEqual([ids[5], ids[4], ids[2]]);
    const second = (await walletAt(c0.id, asOf, 3, first.pageInfo.endCursor)).body.data.wallet.transactions;
    expect(second.edges.map((e: any) => e.node.id)).toEqual([ids[1]]);
    expect(second.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  it('answer as without asOf when asOf is null', async () => {
    const present = WALLET.replace('$asOf: DateTime, ', '').replace('asOf: $asOf, ', '').replace('(asOf: $asOf)', '');
    const [withNull, without] = await Promise.all([walletAt(c0.id, null), raw(t, key, present, { id: c0.id, first: 20, after: null })]);
    expect(withNull.body).toEqual(without.body);
    expect(withNull.body.data.wallet.transactions.totalCount).toBe(5);
  });

  it('read balances, history and total in 3 statements (the wallet, the cuts, the history)', async () => {
    const res = await walletAt(c0.id, '2026-01-03T00:00:00.000Z');
    expect(res.body.errors).toBeUndefined();
    expect(res.statements).toBe(3);
  });

  it.each([
    ['before the wallet existed', () => c1.id, () => '2026-01-01T23:59:59.999Z', /before the wallet existed/],
    ['in the future', () => c0.id, () => new Date(Date.now() + 60_000).toISOString(), /future/],
  ])('refuse an instant %s with validation_error on the field', async (_what, id, asOf, message) => {
    const res = await walletAt(id(), asOf());
    expect(res.body.errors?.map((e: any) => [e.extensions.code, e.path.at(-1)])).toEqual([
      ['validation_error', 'balances'],
      ['validation_error', 'transactions'],
    ]);
    expect(res.body.errors?.[0].message).toMatch(message);
  });

  it.each([
    ['no offset', '2026-01-03T00:00:00'],
    ['an impossible date', '2026-02-30T00:00:00Z'],
    ['a number', 1767225600000],
  ])('refuse %s as a variable or a literal (validation_error, nothing read)', async (_what, asOf) => {
    const variable = await raw(t, key, WALLET, { id: c0.id, asOf, first: 1, after: null });
    const literal = await raw(t, key, `{ wallet(id: "${c0.id}") { balances(asOf: ${JSON.stringify(asOf)}) { balance } } }`);
    for (const res of [variable, literal]) {
      expect(res.body.data ?? null).toBeNull();
      expect(res.body.errors?.[0].extensions.code).toBe('validation_error');
    }
  });

  it('refuse, per wallet, only the wallets that did not exist yet (a project read mixes wallets of any age)', async () => {
    const res = await raw(t, key, `query($id: ID!, $asOf: DateTime) { wallets(projectId: $id, type: CUSTOMER) { edges { node { id balances(asOf: $asOf) { currency balance } } } } }`, {
      id: String(project.projectId),
      asOf: '2026-01-01T12:00:00Z',
    });
    expect(res.body.errors?.map((e: any) => [e.extensions.code, e.path.join('.')])).toEqual([['validation_error', 'wallets.edges.1.node.balances']]);
    // the error nulls the nearest nullable parent (GraphQL's rule); read alone, the older wallet answers
    const alone = await walletAt(c0.id, '2026-01-01T12:00:00Z');
    expect(alone.body.data.wallet.balances).toEqual([
      { account: c0.address, currency: 'PTS', balance: '0' },
      { account: c0.address, currency: 'GEM', balance: '0' },
    ]);
  });

  it("answer another owner's wallet as not found, as without asOf", async () => {
    const res = await walletAt(c0.id, '2026-01-03T00:00:00.000Z', 20, null, otherKey);
    expect(res.body.data).toEqual({ wallet: null });
    expect(res.body.errors?.map((e: any) => e.extensions.code)).toEqual(['not_found']);
  });
});

describe('transactions(walletId, asOf:)', () => {
  const HISTORY = `query($w: String!, $p: ID, $c: String, $asOf: DateTime, $first: Int!) {
    transactions(walletId: $w, projectId: $p, currency: $c, asOf: $asOf, first: $first) { totalCount balance { account currency balance } edges { node { id balance } } }
  }`;

  it('answers the history of GET /transactions?asOf=', async () => {
    const res = await raw(t, key, HISTORY, { w: system.address, p: String(project.projectId), c: 'GEM', asOf: '2026-01-03T13:00:00+01:00', first: 10 });
    expect(res.body).toEqual({
      data: {
        transactions: {
          totalCount: 2,
          balance: { account: system.address, currency: 'GEM', balance: '6' },
          edges: [{ node: { id: ids[5], balance: '6' } }, { node: { id: ids[3], balance: '10' } }],
        },
      },
    });
    expect(DATES[5]).toBe('2026-01-03T12:00:00.000Z');
  });

  it('refuses an instant before the wallet, and answers another owner as not found', async () => {
    const early = await raw(t, key, HISTORY, { w: c1.id, asOf: '2026-01-01T12:00:00Z', first: 10 });
    expect(early.body.errors?.map((e: any) => e.extensions.code)).toEqual(['validation_error']);
    const foreign = await raw(t, otherKey, HISTORY, { w: c0.id, asOf: '2026-01-03T00:00:00Z', first: 10 });
    expect(foreign.body.errors?.map((e: any) => e.extensions.code)).toEqual(['not_found']);
  });
});
