import { fundedProject, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * Limits hold exactly under concurrency, on any number of instances (CONTRACT §19): the check
 * reads used under the wallet's row lock, inside the posting routine, so no interleaving of
 * postings takes used past the limit. Two service instances on one database, 40 debits at once.
 */
let one: TestApp;
let two: TestApp;
let e: FundedProject;
beforeAll(async () => {
  one = await startTestApp();
  two = await startTestApp({ databaseUrl: one.databaseUrl });
  e = await fundedProject(one, { owner: 'limits-race' }, { fund: 100, customers: 3 });
});
afterAll(async () => {
  await two.close();
  await one.close();
});

describe('a debit limit under 40 concurrent debits on two instances', () => {
  it('posts exactly as many as the limit allows and refuses the rest with limit_exceeded', async () => {
    const [a, b, c] = e.customers;
    const limit = await one.request('POST', '/limits', { key: e.key, body: { projectId: e.projectId, currency: e.symbol, direction: 'debit', amount: 10, windowSeconds: 3600, walletId: a.id } });
    expect(limit.status).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? one : two).request('POST', '/transactions', {
          key: e.key,
          body: { amount: 1, currency: e.symbol, from: a.id, to: i % 3 ? b.id : c.id, projectId: e.projectId },
        }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(answers.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(Array(30).fill('limit_exceeded'));
    const [{ n }] = await one.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM transactions WHERE from_wallet_id = $1`, [a.id]);
    expect(n).toBe('10');
    const usage = await two.request('GET', `/wallets/${a.id}/limits`, { key: e.key });
    expect(usage.body.limits).toMatchObject([{ id: limit.body.limit.id, used: 10, remaining: 0 }]);
  });
});
