import { expectStatus, fundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { journaled, journalOf, verifyOf } from './journal-support.js';

/** CONTRACT §22 across instances: two services writing the journal of the same projects make one chain each, without gaps or forks. */
let a: TestApp;
let b: TestApp;
let key: string;
beforeAll(async () => {
  a = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 500 } });
  b = await startTestApp({ databaseUrl: a.databaseUrl, lotSweep: { intervalMs: 0, batchSize: 500 } });
  key = await a.issueKey('journal-instances-owner', 'enterprise');
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

it('two instances posting concurrently, their writers queued on the same turn: one gap-free chain per project', async () => {
  const projects = [await fundedProject(a, key, { customers: 4, systemBalance: '1000' }), await fundedProject(a, key, { customers: 4, systemBalance: '1000' })];
  await journaled(a, b);
  // the test holds the writers' turn: both instances' writers queue behind it while the postings commit
  const holder = await a.db.background.connect();
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT stream_pos FROM journal_cursor FOR UPDATE');
    const writes = [];
    for (let i = 0; i < 160; i++) {
      const f = projects[i % 2];
      const app = i % 3 === 0 ? b : a;
      writes.push(expectStatus(app.request('POST', '/transactions', { key, body: { projectId: f.projectId, currency: f.symbol, from: f.system.id, to: f.customers[i % 4].id, amount: 1 } }), 201));
    }
    await Promise.all(writes);
    await Promise.all([a.app.services.eventSequencer.flush(), b.app.services.eventSequencer.flush()]);
    const waiting = await a.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'transactionid' AND NOT granted`);
    expect(waiting[0].n).toBeGreaterThanOrEqual(1); // a writer waits for the turn
    await holder.query('COMMIT');
  } finally {
    holder.release();
  }
  await journaled(a, b);
  expect(a.app.services.journalWriter.count() + b.app.services.journalWriter.count()).toBeGreaterThanOrEqual(160);
  for (const f of projects) {
    const entries = await journalOf(b, key, f.projectId);
    const transactions = await a.db.query<{ id: string }>(`SELECT id FROM transactions WHERE project_id = $1`, [f.projectId]);
    expect(entries).toHaveLength(transactions.length);
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
    expect(new Set(entries.map((e) => e.transactionId))).toEqual(new Set(transactions.map((t) => t.id)));
    entries.forEach((e, i) => expect(e.prevHash).toBe(i === 0 ? '0'.repeat(64) : entries[i - 1].hash));
    expect(await verifyOf(a, key, f.projectId)).toEqual({ ok: true, entries: entries.length, lastSeq: entries.length, lastHash: entries.at(-1)!.hash });
  }
});
