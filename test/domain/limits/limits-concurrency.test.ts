import { fundedProject, type FundedProject } from '../../support/fixtures.js';
import { freshStatistics, openLocker, type Locker } from '../../support/locks.js';
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

/**
 * The capture of a hold that has left a debit limit's window is a new movement there (CONTRACT
 * §19, clarified with part four), so captures of aged holds racing with transfers still never
 * take used past the limit. The interleaving is forced: a third session holds the sender's row
 * lock until both instances' posting backends wait on it with every request in hand.
 */
describe('captures of holds aged out of a 60 s debit limit, racing with transfers on two instances', () => {
  it('never take used above the limit', async () => {
    const f = await fundedProject(one, { owner: 'limits-aged-race' }, { fund: 100, customers: 2 });
    const [a, b] = f.customers;
    const holdIds: string[] = [];
    // 20 held before the limit exists (a hold is checked at its creation only), then the minute passes
    for (let i = 0; i < 10; i++) {
      const held = await one.request('POST', '/holds', { key: f.key, body: { amount: 2, currency: f.symbol, from: a.id, to: b.id, projectId: f.projectId } });
      expect(held.status).toBe(201);
      holdIds.push(held.body.hold.id);
    }
    const limit = await one.request('POST', '/limits', { key: f.key, body: { projectId: f.projectId, currency: f.symbol, direction: 'debit', amount: 10, windowSeconds: 60, walletId: a.id } });
    expect(limit.status).toBe(201);
    await one.db.query(`UPDATE holds SET created_at = created_at - interval '120 seconds' WHERE project_id = $1`, [f.projectId]);
    await one.db.query(`UPDATE transactions SET created_at = created_at - interval '120 seconds' WHERE project_id = $1`, [f.projectId]);
    expect((await one.request('GET', `/wallets/${a.id}/limits`, { key: f.key })).body.limits).toMatchObject([{ used: 0, remaining: 10 }]);

    const locker = await openLocker(one.databaseUrl);
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM wallets WHERE id = $1 FOR UPDATE', [a.id]);
      const requests = [
        ...holdIds.map((id, i) => (i % 2 ? one : two).request('POST', `/holds/${id}/capture`, { key: f.key, body: { projectId: f.projectId } })),
        ...Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? two : one).request('POST', '/transactions', { key: f.key, body: { amount: 1, currency: f.symbol, from: a.id, to: b.id, projectId: f.projectId } }),
        ),
      ];
      await waitersOn(locker, 2); // both instances' posting backends wait on the row, requests in hand
      await locker.query('COMMIT');
      const answers = await Promise.all(requests);
      const posted = answers.filter((r) => r.status === 201);
      const refused = answers.filter((r) => r.status !== 201);
      expect(refused.map((r) => [r.status, r.body.code, r.body.details.limitId])).toEqual(refused.map(() => [409, 'limit_exceeded', limit.body.limit.id]));
      const moved = posted.reduce((sum, r) => sum + Number(r.body.transaction.amount), 0);
      // at least one transfer of 1 was refused (20 of them could not all fit), so the limit was filled exactly
      expect(moved).toBe(10);
      const usage = await two.request('GET', `/wallets/${a.id}/limits`, { key: f.key });
      expect(usage.body.limits).toMatchObject([{ used: 10, remaining: 0 }]);
      const [{ debited }] = await one.db.query<{ debited: string }>(
        `SELECT coalesce(sum(amount), 0)::text AS debited FROM transactions WHERE from_wallet_id = $1 AND created_at > now() - interval '60 seconds'`,
        [a.id],
      );
      expect(debited).toBe(String(10 * 10 ** f.fractions));
      // every refused capture left its hold pending
      const statuses = await one.db.query<{ status: string; n: string }>(`SELECT status, count(*)::text AS n FROM holds WHERE project_id = $1 GROUP BY status ORDER BY status`, [f.projectId]);
      const captures = answers.slice(0, holdIds.length);
      expect(Object.fromEntries(statuses.map((s) => [s.status, Number(s.n)]))).toEqual({
        ...(captures.some((r) => r.status === 201) && { captured: captures.filter((r) => r.status === 201).length }),
        ...(captures.some((r) => r.status !== 201) && { pending: captures.filter((r) => r.status !== 201).length }),
      });
    } finally {
      await locker.end();
    }
  });
});

/**
 * Waits until `count` backends wait behind the locker's lock (polled: PostgreSQL announces no lock
 * wait). The first waits on the locker itself, the next ones on the tuple lock the first queued
 * for, so any backend blocked at all counts.
 */
async function waitersOn(locker: Locker, count: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    await freshStatistics(locker); // the locker is inside its transaction
    const rows = await locker.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE cardinality(pg_blocking_pids(pid)) > 0 AND datname = current_database()');
    if (rows[0].n >= count) return;
    if (Date.now() > deadline) throw new Error(`${rows[0].n} of ${count} backends waited on the locker's lock`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
