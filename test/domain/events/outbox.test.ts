import type { LedgerEventView } from '../../../src/domain/events/event.types.js';
import { PostingRepository } from '../../../src/domain/ledger/posting.repository.js';
import { expectStatus, fundedProject, transferLeg } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * The outbox in the database (CONTRACT §16): an event exists exactly when its change committed,
 * and the numbering follows commit order, per project, across instances.
 */
let a: TestApp;
let b: TestApp;
let key: string;
beforeAll(async () => {
  a = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 500 } });
  b = await startTestApp({ databaseUrl: a.databaseUrl, lotSweep: { intervalMs: 0, batchSize: 500 } });
  key = await a.issueKey('outbox-owner', 'enterprise');
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const eventCount = async (projectId: number) => Number((await a.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM events WHERE project_id = $1`, [projectId]))[0].n);

describe('events are written with their change, in the same database transaction', () => {
  it('a posting rolled back after ledger_post leaves no event; the same posting committed leaves one', async () => {
    const f = await fundedProject(a, key, { customers: 2, systemBalance: '100' });
    const before = await eventCount(f.projectId);
    const ledger = new PostingRepository(a.db);
    await expect(
      a.db.transaction(async (client) => {
        await client.query(`SELECT * FROM ledger_post(ARRAY['transfer'], ARRAY[$1::int], ARRAY[$2::uuid], ARRAY[$3::uuid], ARRAY[$4::uuid], ARRAY[5::bigint],
                              ARRAY[NULL::text], ARRAY[NULL::int], ARRAY[NULL::uuid], ARRAY[NULL::text], ARRAY[NULL::json], ARRAY[NULL::int])`,
          [f.projectId, f.assetId, f.system.id, f.customers[0].id]);
        const inside = await client.query(`SELECT count(*)::int AS n FROM events WHERE project_id = $1`, [f.projectId]);
        expect(inside.rows[0].n).toBe(before + 1); // written by the posting, visible to its own transaction
        throw new Error('rolled back on purpose');
      }),
    ).rejects.toThrow('rolled back on purpose');
    expect(await eventCount(f.projectId)).toBe(before);
    const [posted] = await ledger.post([transferLeg(f, f.system.id, f.customers[0].id, 5n)]);
    expect(posted.code).toBe('ok');
    expect(await eventCount(f.projectId)).toBe(before + 1);
    const refused = await ledger.post([transferLeg(f, f.customers[1].id, f.customers[0].id, 5n)]);
    expect(refused[0].code).toBe('insufficient_funds');
    expect(await eventCount(f.projectId)).toBe(before + 1);
  });
});

describe('numbering', () => {
  it('gives each project 1, 2, 3 … in commit order: every wallet sees its transactions in the order it posted them', async () => {
    const projects = [await fundedProject(a, key, { customers: 6, systemBalance: '600' }), await fundedProject(a, key, { customers: 6, systemBalance: '600' })];
    for (const f of projects) for (const c of f.customers) await expectStatus(a.request('POST', '/transactions', { key, body: { projectId: f.projectId, currency: f.symbol, from: f.system.id, to: c.id, amount: 50 } }), 201);
    // 240 concurrent transfers on two instances, both numbering
    const writes = [];
    for (let i = 0; i < 240; i++) {
      const f = projects[i % 2];
      const app = i % 3 === 0 ? b : a;
      const from = f.customers[i % 6];
      const to = f.customers[(i * 7 + 1) % 6 === i % 6 ? (i + 1) % 6 : (i * 7 + 1) % 6];
      writes.push(app.request('POST', '/transactions', { key, body: { projectId: f.projectId, currency: f.symbol, from: from.id, to: to.id, amount: 1 } }));
    }
    await Promise.all(writes);
    await Promise.all([a.app.services.eventSequencer.flush(), b.app.services.eventSequencer.flush()]);
    for (const f of projects) {
      const rows = await a.db.query<{ seq: string; tx_seq: string; from_wallet_id: string | null; to_wallet_id: string }>(
        `SELECT e.seq::text, t.seq::text AS tx_seq, t.from_wallet_id, t.to_wallet_id FROM events e JOIN transactions t ON t.id = e.subject_id
          WHERE e.project_id = $1 ORDER BY e.seq`,
        [f.projectId],
      );
      expect(rows.map((r) => Number(r.seq))).toEqual(rows.map((_, i) => i + 1));
      // for each wallet, the order of its events is the order of its transactions (its row lock orders their commits)
      for (const c of f.customers) {
        const mine = rows.filter((r) => r.from_wallet_id === c.id || r.to_wallet_id === c.id).map((r) => Number(r.tx_seq));
        expect(mine).toEqual([...mine].sort((x, y) => x - y));
      }
    }
    const unnumbered = await a.db.query(`SELECT 1 FROM events WHERE seq IS NULL`);
    expect(unnumbered).toHaveLength(0);
  });
});

describe('EventHub: every instance follows the stream', () => {
  it('an event committed on A reaches a listener on B, once, in stream order, within a second', async () => {
    const f = await fundedProject(a, key, { customers: 2, systemBalance: '100' });
    await a.app.services.eventSequencer.flush(); // the set-up's events are numbered before we listen
    await b.app.services.eventHub.wake();
    const received: LedgerEventView[] = [];
    let resolve!: () => void;
    const arrived = new Promise<void>((r) => (resolve = r));
    const off = b.app.services.eventHub.subscribe((events) => {
      received.push(...events.filter((e) => e.projectId === f.projectId));
      if (received.length >= 3) resolve();
    });
    try {
      const started = Date.now();
      for (let i = 0; i < 3; i++) await expectStatus(a.request('POST', '/transactions', { key, body: { projectId: f.projectId, currency: f.symbol, from: f.system.id, to: f.customers[0].id, amount: 1 } }), 201);
      await arrived;
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(received.map((e) => e.type)).toEqual(['transaction.posted', 'transaction.posted', 'transaction.posted']);
      expect(received.map((e) => Number(e.seq))).toEqual([...received.map((e) => Number(e.seq))].sort((x, y) => x - y));
      expect(new Set(received.map((e) => e.id)).size).toBe(3);
      expect(received[0].walletIds.sort()).toEqual([f.system.id, f.customers[0].id].sort());
    } finally {
      off();
    }
  });
});
