import { fundedProject } from '../../support/fixtures.js';
import { openLocker, type Locker } from '../../support/locks.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * Credit lines and conditions hold exactly under concurrency on any number of instances (CONTRACT
 * §28): the debit's conditional UPDATE reads `amount − held + credit_limit` under the wallet's row
 * lock, and conditions are judged under the same locks, after the posting. Two service instances
 * on one database; the interleaving is forced: a third session holds the wallet's row lock until
 * both instances' posting backends wait on it with their requests in hand.
 */
let one: TestApp;
let two: TestApp;
beforeAll(async () => {
  one = await startTestApp();
  two = await startTestApp({ databaseUrl: one.databaseUrl });
});
afterAll(async () => {
  await two.close();
  await one.close();
});

/**
 * Waits until `count` backends wait behind a lock (polled: PostgreSQL announces no lock wait).
 * The locker asks from inside its transaction, where pg_stat_activity is one snapshot for the
 * whole transaction: cleared before each look, or a backend connected since is never seen.
 */
async function waitersOn(locker: Locker, count: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    await locker.query('SELECT pg_stat_clear_snapshot()');
    const rows = await locker.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE cardinality(pg_blocking_pids(pid)) > 0 AND datname = current_database()');
    if (rows[0].n >= count) return;
    if (Date.now() > deadline) throw new Error(`${rows[0].n} of ${count} backends waited on the locker's lock`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Runs `requests` while a third session holds `walletId`'s row lock, released once both instances wait on it. */
async function raced<T>(walletId: string, requests: () => Promise<T>[]): Promise<T[]> {
  const locker = await openLocker(one.databaseUrl);
  try {
    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM wallets WHERE id = $1 FOR UPDATE', [walletId]);
    const pending = requests();
    await waitersOn(locker, 2);
    await locker.query('COMMIT');
    return await Promise.all(pending);
  } finally {
    await locker.end();
  }
}

describe('120 concurrent spenders (transfers and holds) on one wallet with a credit line, on two instances', () => {
  it('spend exactly balance + limit and not one minor unit more; the balance never passes −limit', async () => {
    const f = await fundedProject(one, { owner: 'credit-race' }, { fund: 10, customers: 3, fractions: 0 });
    const [a, b, c] = f.customers;
    expect((await one.request('PUT', `/wallets/${a.id}/credit-line`, { key: f.key, body: { projectId: f.projectId, currency: f.symbol, limit: 30 } })).status).toBe(200);
    const body = (i: number) => ({ amount: 1, currency: f.symbol, from: a.id, to: i % 3 ? b.id : c.id, projectId: f.projectId });
    const answers = await raced(a.id, () =>
      Array.from({ length: 120 }, (_, i) => (i % 2 ? one : two).request('POST', i % 4 === 3 ? '/holds' : '/transactions', { key: f.key, body: body(i) })),
    );
    const granted = answers.filter((r) => r.status === 201);
    const refused = answers.filter((r) => r.status !== 201);
    expect(granted).toHaveLength(40); // 10 funded + 30 of credit
    expect(refused).toHaveLength(80);
    expect(new Set(refused.map((r) => `${r.status} ${r.body.code}`))).toEqual(new Set(['409 insufficient_funds']));
    const [row] = await one.db.query<{ amount: string; held: string }>(`SELECT amount::text, held::text FROM balances WHERE wallet_id = $1`, [a.id]);
    const transfers = granted.filter((r) => r.body.transaction).length;
    expect(row).toEqual({ amount: String(10 - transfers), held: String(40 - transfers) });
    const [{ lowest }] = await one.db.query<{ lowest: string }>(`SELECT min(from_balance)::text AS lowest FROM transactions WHERE from_wallet_id = $1`, [a.id]);
    expect(Number(lowest)).toBeGreaterThanOrEqual(-30);
    const wallet = await two.request('GET', `/wallets/${a.id}`, { key: f.key });
    expect(wallet.body.balance[0]).toMatchObject({ available: 0, creditLimit: 30 });
    // conservation: the project's balances still sum to what was seeded
    const [{ total }] = await one.db.query<{ total: string }>(`SELECT sum(amount)::text AS total FROM balances WHERE project_id = $1`, [f.projectId]);
    expect(total).toBe('1000');
  });
});

describe('a compare-and-set: 60 concurrent credits with "the receiver ends at most start + 15", on two instances', () => {
  it('posts exactly 15 and refuses the rest with condition_failed', async () => {
    const f = await fundedProject(one, { owner: 'condition-race' }, { fund: 0, customers: 1, fractions: 0 });
    const [a] = f.customers;
    const conditions = [{ wallet: a.id, currency: f.symbol, field: 'balance', op: 'lte', value: 15 }];
    const answers = await raced(a.id, () =>
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? one : two).request('POST', '/transactions', { key: f.key, body: { amount: 1, currency: f.symbol, from: f.system.id, to: a.id, projectId: f.projectId, conditions } }),
      ),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(15);
    const refused = answers.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.code, r.body.details])).toEqual(refused.map(() => [409, 'condition_failed', { index: 0, actual: 16 }]));
    const [{ n }] = await one.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM transactions WHERE to_wallet_id = $1`, [a.id]);
    expect(n).toBe('15');
  });
});
