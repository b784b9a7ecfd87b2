import { expectStatus, fundedProject, type FundedProject } from '../../support/fixtures.js';
import { groupSumDrift } from '../../support/group-oracle.js';
import { openLocker, type Locker } from '../../support/locks.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * Wallet groups under concurrency, on two service instances over one database (CONTRACT §29):
 * moves racing each other never make a cycle, and the running sums stay exactly the sums of the
 * wallets whatever postings, memberships and moves interleave. Where an interleaving matters it
 * is forced: a third session holds the project's tree lock (the advisory lock of
 * wallet-group.repository.ts) until every racer waits on it with its request in hand.
 */
let one: TestApp;
let two: TestApp;
let p: FundedProject;

beforeAll(async () => {
  one = await startTestApp();
  two = await startTestApp({ databaseUrl: one.databaseUrl });
  p = await fundedProject(one, { owner: 'groups-race' }, { customers: 8, fund: 100, systemBalance: 10_000 });
});
afterAll(async () => {
  await two.close();
  await one.close();
});

const create = async (name: string, parentId: string | null = null) =>
  (await expectStatus(one.request('POST', '/wallet-groups', { key: p.key, body: { projectId: p.projectId, name, parentId } }), 201)).group.id as string;
const add = (t: TestApp, group: string, wallet: string) => t.request('PUT', `/wallet-groups/${group}/wallets/${wallet}`, { key: p.key, body: { projectId: p.projectId } });
const move = (t: TestApp, group: string, parentId: string | null) => t.request('PUT', `/wallet-groups/${group}`, { key: p.key, body: { projectId: p.projectId, parentId } });
const transfer = (t: TestApp, from: string, to: string, amount: number) =>
  t.request('POST', '/transactions', { key: p.key, body: { amount, currency: p.symbol, from, to, projectId: p.projectId } });

/** The project's tree is a tree: each path is its parent's plus itself, no group twice on a path, at most 8 deep. */
async function treeFaults(projectId: number): Promise<unknown[]> {
  return one.db.query(
    `SELECT g.id, g.path::text FROM wallet_groups g LEFT JOIN wallet_groups pa ON pa.project_id = g.project_id AND pa.id = g.parent_id
      WHERE g.project_id = $1
        AND (g.path IS DISTINCT FROM coalesce(pa.path, '{}') || g.id
             OR cardinality(g.path) > 8
             OR (SELECT count(DISTINCT x) FROM unnest(g.path) x) <> cardinality(g.path))`,
    [projectId],
  );
}

/** Holds the project's tree lock in `locker` until `release`; resolves once `waiters` backends wait behind it. */
async function holdTree(locker: Locker): Promise<void> {
  await locker.query('BEGIN');
  await locker.query(`SELECT pg_advisory_xact_lock(hashtext('wallet_groups'), $1)`, [p.projectId]);
}

async function waitersOn(locker: Locker, count: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const rows = await locker.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))', [locker.pid]);
    if (rows[0].n >= count) return;
    if (Date.now() > deadline) throw new Error(`${rows[0].n} of ${count} backends waited on the locker's lock`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('two moves racing to put A under B and B under A', () => {
  it('one is made, the other is refused 400: never a cycle', async () => {
    const a = await create('A');
    const b = await create('B');
    const locker = await openLocker(one.databaseUrl);
    try {
      await holdTree(locker);
      const racers = [move(one, a, b), move(two, b, a)];
      await waitersOn(locker, 2); // both have read nothing yet: they wait for the tree
      await locker.query('COMMIT');
      const statuses = (await Promise.all(racers)).map((r) => r.status).sort();
      expect(statuses).toEqual([200, 400]);
    } finally {
      await locker.end();
    }
    expect(await treeFaults(p.projectId)).toEqual([]);
  });

  it('40 random moves on two instances at once leave a tree (no cycle, depth ≤ 8, paths consistent)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push(await create(`R${i}`));
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % ids.length;
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => move(i % 2 ? one : two, ids[next()], next() === 0 ? null : ids[next()])));
    expect(answers.every((r) => r.status === 200 || (r.status === 400 && r.body.code === 'validation_error'))).toBe(true);
    expect(await treeFaults(p.projectId)).toEqual([]);
    expect(await groupSumDrift(one, p.projectId)).toEqual([]);
  });
});

describe('postings, memberships and moves interleaved on two instances', () => {
  it('a posting into a grouped wallet and a move of its group, both waiting on the tree lock: the sums stay exact', async () => {
    const root1 = await create('Root 1');
    const root2 = await create('Root 2');
    const mid = await create('Mid', root1);
    const leaf = await create('Leaf', mid);
    const [w] = p.customers;
    await expectStatus(add(one, leaf, w.id), 200);
    const locker = await openLocker(one.databaseUrl);
    try {
      await holdTree(locker);
      const racers = [transfer(one, p.system.id, w.id, 3), move(two, mid, root2)];
      await waitersOn(locker, 2); // the posting holds w's row and waits for the tree (shared); the move waits too
      await locker.query('COMMIT');
      expect((await Promise.all(racers)).map((r) => r.status)).toEqual([201, 200]);
    } finally {
      await locker.end();
    }
    expect(await groupSumDrift(one, p.projectId)).toEqual([]);
    const [sums] = await one.db.query<{ amount: string }>(`SELECT amount::text FROM wallet_group_balances WHERE project_id = $1 AND group_id = $2`, [p.projectId, root2]);
    expect(sums.amount).toBe(String(103 * 10 ** p.fractions));
  });

  it('120 transfers, holds, memberships and moves at once: every group sum equals its wallets’, every transfer counted once', async () => {
    const top = await create('Top');
    const left = await create('Left', top);
    const right = await create('Right', top);
    const deep = await create('Deep', left);
    const groups = [top, left, right, deep];
    const wallets = p.customers;
    for (let i = 0; i < wallets.length - 2; i++) await expectStatus(add(one, groups[i % groups.length], wallets[i].id), 200);
    const requests: Promise<{ status: number }>[] = [];
    for (let i = 0; i < 120; i++) {
      const t = i % 2 ? one : two;
      const from = wallets[i % wallets.length].id;
      const to = wallets[(i * 3 + 1) % wallets.length].id;
      if (i % 10 === 0) requests.push(add(t, groups[(i / 10) % groups.length], wallets[(i / 10) % wallets.length].id));
      else if (i % 10 === 5) requests.push(move(t, deep, i % 20 === 5 ? right : left));
      else if (i % 10 === 7) requests.push(t.request('POST', '/holds', { key: p.key, body: { amount: 0.5, currency: p.symbol, from, to, projectId: p.projectId } }));
      else requests.push(transfer(t, from, to, 1 + (i % 3)));
    }
    const answers = await Promise.all(requests);
    expect(answers.filter((r) => r.status >= 500)).toEqual([]);
    expect(await groupSumDrift(one, p.projectId)).toEqual([]);
  });
});
