import { expectStatus, fundedProject, transfer, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * CONTRACT §20: exactly one event per crossing, on any number of instances. Two service
 * instances share one database; concurrent postings through both are judged inside their posting
 * transactions, under the wallet's lock, so each crossing is written once.
 */
let a: TestApp;
let b: TestApp;
let key: string;

beforeAll(async () => {
  a = await startTestApp();
  b = await startTestApp({ databaseUrl: a.databaseUrl });
  key = await a.issueKey('monitors-concurrency', 'enterprise');
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const crossingsOf = async (p: FundedProject) =>
  (await expectStatus(a.request('GET', `/events?projectId=${p.projectId}&limit=100`, { key }), 200)).events.filter((e: any) => e.type === 'balance.threshold_crossed').map((e: any) => e.data);

const post = (p: FundedProject, i: number, from: string, to: string, amount: number) =>
  (i % 2 ? a : b).request('POST', '/transactions', { key, body: { amount, currency: p.symbol, from, to, projectId: p.projectId } });

describe('crossings under concurrency, two instances', () => {
  it('30 concurrent debits that cross a threshold once write exactly one event per monitor', async () => {
    const p = await fundedProject(a, key, { customers: 31 });
    const [alice, ...others] = p.customers;
    await transfer(a, p, p.system.id, alice.id, 100);
    const own = (await expectStatus(a.request('POST', '/balance-monitors', { key, body: { projectId: p.projectId, currency: p.symbol, field: 'balance', operator: 'lt', value: 50, walletId: alice.id } }), 201)).monitor;
    const wide = (await expectStatus(a.request('POST', '/balance-monitors', { key, body: { projectId: p.projectId, currency: p.symbol, field: 'available', operator: 'lte', value: 40 } }), 201)).monitor;

    const replies = await Promise.all(others.slice(0, 30).map((to, i) => post(p, i, alice.id, to.id, 3)));
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 201));

    const seen = await crossingsOf(p);
    const mine = seen.filter((c: any) => c.walletId === alice.id);
    expect(mine.map((c: any) => c.monitorId).sort()).toEqual([own.id, wide.id].sort());
    const [below] = mine.filter((c: any) => c.monitorId === own.id);
    expect(below.previous - below.current).toBe(3);
    expect(below.previous >= 50 && below.current < 50).toBe(true);
    // receivers: a project-wide `available <= 40` was true for each of them already (0 → 3 keeps it true)
    expect(seen).toHaveLength(2);
  });

  it('debits and credits racing around the threshold cross exactly as the committed history does', async () => {
    const p = await fundedProject(a, key, { customers: 2 });
    const [alice, bob] = p.customers;
    await transfer(a, p, p.system.id, alice.id, 50);
    await transfer(a, p, p.system.id, bob.id, 50);
    const m = (await expectStatus(a.request('POST', '/balance-monitors', { key, body: { projectId: p.projectId, currency: p.symbol, field: 'balance', operator: 'lt', value: 50, walletId: alice.id } }), 201)).monitor;

    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? post(p, i, bob.id, alice.id, 1) : post(p, i + 1, alice.id, bob.id, 1))));
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 201));

    // the oracle: alice's history oldest first, each step's balance before and after
    const history = (await expectStatus(a.request('GET', `/transactions?walletId=${alice.id}&projectId=${p.projectId}&limit=100`, { key }), 200)).transactions.reverse();
    const expected: string[] = [];
    for (const tx of history) {
      const before = tx.from === alice.address ? tx.balance + tx.amount : tx.balance - tx.amount;
      if (before >= 50 && tx.balance < 50) expected.push(tx.id);
    }
    expect(expected.length).toBeGreaterThan(0);
    const seen = (await crossingsOf(p)).filter((c: any) => c.monitorId === m.id);
    expect(seen.map((c: any) => c.transactionId)).toEqual(expected);
  });
});
