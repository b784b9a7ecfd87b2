import { openLocker } from '../../support/locks.js';
import { expectStatus, fundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * Two instances on one database: each posting is folded exactly once, whichever instance numbers
 * it (the fold runs in the numbering's transaction, under its lock). The test holds that lock
 * while both instances post and both sequencers queue up behind it, then lets them race.
 */
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await startTestApp();
  b = await startTestApp({ databaseUrl: a.databaseUrl });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

it('two instances numbering the same backlog fold every posting once', async () => {
  const key = await a.issueKey('twin', 'pro');
  const p = await fundedProject(a, key, { customers: 4, systemBalance: '100000' });
  await a.app.services.eventSequencer.flush();
  const locker = await openLocker(a.databaseUrl);
  try {
    await locker.query(`SELECT pg_advisory_lock(hashtext('ledger_sequence_events'))`);
    const posts = Array.from({ length: 40 }, (_, i) =>
      expectStatus((i % 2 ? a : b).request('POST', '/transactions', { key, body: { projectId: p.projectId, currency: p.symbol, from: p.system.id, to: p.customers[i % 4].id, amount: 1 + i } }), 201),
    );
    await Promise.all(posts);
    const flushes = [a.app.services.eventSequencer.flush(), b.app.services.eventSequencer.flush()];
    await locker.query(`SELECT pg_advisory_unlock(hashtext('ledger_sequence_events'))`);
    await Promise.all(flushes);
  } finally {
    await locker.end();
  }
  const principal = (await a.app.services.apiKeys.authenticate(key))!;
  const answer = await b.app.services.analytics.analytics(principal, { projectId: p.projectId, interval: 'hour' });
  const issued = Array.from({ length: 40 }, (_, i) => BigInt((1 + i) * 100)).reduce((x, y) => x + y, 0n);
  expect(answer.totals.issued).toBe(issued);
  expect(answer.totals.outstanding).toBe(issued);
  expect(answer.series.at(-1)?.activeWallets).toBe(4);

  const before = await a.db.query(`SELECT * FROM analytics_buckets WHERE project_id = $1 ORDER BY grain, start`, [p.projectId]);
  await a.app.services.analytics.rebuild(p.projectId);
  expect(await a.db.query(`SELECT * FROM analytics_buckets WHERE project_id = $1 ORDER BY grain, start`, [p.projectId])).toEqual(before);
});
