import { openDatabase, type Database } from '../../../src/db/database.js';
import { withStatementScope } from '../../../src/db/statement-counter.js';
import { PostingRepository } from '../../../src/domain/ledger/posting.repository.js';
import { PostingQueue } from '../../../src/domain/ledger/posting-queue.js';
import type { PostingLeg, PostingRequest, PostingResult } from '../../../src/domain/ledger/ledger.types.js';
import { toLedgerError } from '../../../src/domain/shared/error-translation.js';
import { createLogger } from '../../../src/logger.js';
import { fundedProject, transferLeg, type FundedProject } from '../../support/fixtures.js';
import { blockedBy, openLocker, type Locker } from '../../support/locks.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/** The real repository on the real database, recording what each `ledger_post` call carried. */
class RecordingRepository extends PostingRepository {
  readonly calls: PostingRequest[][] = [];
  override async post(batch: PostingRequest[]): Promise<PostingResult[]> {
    this.calls.push(batch);
    return super.post(batch);
  }
}

const TIMEOUT_MS = 300;

let t: TestApp;
let f: FundedProject;
let w: string[];
let locker: Locker;
beforeAll(async () => {
  t = await startTestApp({ statementTimeoutMs: TIMEOUT_MS });
  const key = await t.issueKey('statement-timeout-owner', 'enterprise');
  f = await fundedProject(t, key, { customers: 14, systemBalance: '1000' });
  for (const c of f.customers) {
    const res = await t.request('POST', '/transactions', { key, body: { amount: 10, currency: 'PTS', from: f.system.id, to: c.id, projectId: f.projectId } });
    expect(res.status).toBe(201);
  }
  w = f.customers.map((c) => c.id);
});
beforeEach(async () => {
  locker = await openLocker(t.databaseUrl);
});
afterEach(() => locker.end());
afterAll(() => t.close());

/** Runs `fn` as a request's work: its statements go to the request connections (src/db/statement-counter.ts). */
const asRequest = <T>(fn: () => T): T => withStatementScope({ statements: 0 }, fn);
const transfer = (from: string, to: string, amount: bigint): PostingLeg => transferLeg(f, from, to, amount);
const senders = (calls: PostingRequest[][]) => calls.map((batch) => batch.map((r) => (r as PostingLeg).fromWalletId));

const balances = async (ids: string[]): Promise<bigint[]> => {
  const rows = await t.db.query<{ wallet_id: string; amount: string }>(`SELECT wallet_id, amount::text FROM balances WHERE wallet_id = ANY ($1::uuid[])`, [ids]);
  const byId = new Map(rows.map((r) => [r.wallet_id, BigInt(r.amount)]));
  return ids.map((id) => byId.get(id)!);
};

const sentBy = async (walletId: string): Promise<number> => {
  const [row] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM transactions WHERE from_wallet_id = $1`, [walletId]);
  return row.n;
};

/** Whether a promise has settled by now (its reactions run first). */
const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  promise.then(() => (done = true), () => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('statement time-out in a group commit (CONTRACT §18)', () => {
  it('cuts the group that waits on a locked balance row: only the request on it answers timeout, the others commit as if it had not been there', async () => {
    const repo = new RecordingRepository(t.db);
    const queue = new PostingQueue(repo, () => undefined, { pipeline: 1 });
    const before = await balances(w.slice(0, 10));
    const sentBefore = await sentBy(w[2]);
    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM balances WHERE wallet_id = $1 FOR UPDATE', [w[2]]);
    // the first leaves at once and alone; the next four gather behind it into one ledger_post call
    const { first, culprit, others } = asRequest(() => ({
      first: queue.submit(transfer(w[0], w[1], 1n)),
      culprit: queue.submit(transfer(w[2], w[3], 5n)),
      others: [queue.submit(transfer(w[4], w[5], 1n)), queue.submit(transfer(w[6], w[7], 2n)), queue.submit(transfer(w[8], w[9], 3n))],
    }));
    expect((await first).code).toBe('ok');
    const results = await Promise.all(others);
    const cut = await culprit.then(
      () => null,
      (error: unknown) => error,
    );
    expect(results.map((r) => r.code)).toEqual(['ok', 'ok', 'ok']);
    expect(toLedgerError(cut).status).toBe(503);
    expect(toLedgerError(cut).code).toBe('timeout');
    // one call for the group, cut; then each of its requests alone
    expect(senders(repo.calls.slice(0, 2))).toEqual([[w[0]], [w[2], w[4], w[6], w[8]]]);
    expect(senders(repo.calls.slice(2)).sort()).toEqual([[w[2]], [w[4]], [w[6]], [w[8]]].sort());
    await locker.query('ROLLBACK');

    const after = await balances(w.slice(0, 10));
    expect(after.map((b, i) => b - before[i])).toEqual([-1n, 1n, 0n, 0n, -1n, 1n, -2n, 2n, -3n, 3n]);
    expect(await sentBy(w[2])).toBe(sentBefore);
    expect(results.map((r) => [r.fromBalance, r.toBalance])).toEqual([
      [after[4], after[5]],
      [after[6], after[7]],
      [after[8], after[9]],
    ]);

    // the lock gone, the same request posts
    const retried = await asRequest(() => queue.submit(transfer(w[2], w[3], 5n)));
    expect(retried).toMatchObject({ code: 'ok', fromBalance: before[2] - 5n, toBalance: before[3] + 5n });
    await asRequest(() => Promise.all([queue.submit(transfer(w[3], w[2], 5n)), queue.submit(transfer(w[1], w[0], 1n))]));
  });

  describe('with the cut made by the test (pg_cancel_backend: the same 57014, at a chosen moment)', () => {
    let db: Database;
    beforeAll(async () => {
      db = await openDatabase(t.databaseUrl, createLogger('silent'), 6); // no time-out: only the test cuts
    });
    afterAll(() => db.close());

    it('answers the others while the cut request waits again alone, and postings on other wallets go on meanwhile', async () => {
      const repo = new RecordingRepository(db);
      const queue = new PostingQueue(repo, () => undefined, { pipeline: 1 });
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM balances WHERE wallet_id = $1 FOR UPDATE', [w[2]]);
      const { first, culprit, others } = asRequest(() => ({
        first: queue.submit(transfer(w[0], w[1], 1n)),
        culprit: queue.submit(transfer(w[2], w[3], 5n)),
        others: [queue.submit(transfer(w[4], w[5], 1n)), queue.submit(transfer(w[6], w[7], 1n))],
      }));
      await first;
      const group = await blockedBy(locker);
      await locker.query('SELECT pg_cancel_backend($1)', [group]);
      // the others have answered although the cut request is still waiting on the lock, alone
      expect((await Promise.all(others)).map((r) => r.code)).toEqual(['ok', 'ok']);
      expect(await settled(culprit)).toBe(false);
      // and the pipeline's one slot is free: a posting on other wallets goes through now
      expect((await asRequest(() => queue.submit(transfer(w[10], w[11], 1n)))).code).toBe('ok');
      expect(await settled(culprit)).toBe(false);
      // a posting on the waiting request's wallet stays behind it (arrival order per wallet)
      const behind = asRequest(() => queue.submit(transfer(w[3], w[12], 1n)));
      expect(await settled(behind)).toBe(false);
      await locker.query('ROLLBACK');
      expect((await culprit).code).toBe('ok');
      expect((await behind).code).toBe('ok');
      expect(senders(repo.calls)).toEqual([[w[0]], [w[2], w[4], w[6]], [w[2]], [w[4]], [w[6]], [w[10]], [w[3]]]);
      await asRequest(() =>
        Promise.all([
          queue.submit(transfer(w[1], w[0], 1n)),
          queue.submit(transfer(w[3], w[2], 5n)),
          queue.submit(transfer(w[5], w[4], 1n)),
          queue.submit(transfer(w[7], w[6], 1n)),
          queue.submit(transfer(w[11], w[10], 1n)),
          queue.submit(transfer(w[12], w[3], 1n)),
        ]),
      );
    });
  });
});

describe('background work is not cut (CONTRACT §18)', () => {
  it('sends a request’s statements on connections with the time-out, and work outside any request on connections without', async () => {
    const show = 'SHOW statement_timeout';
    expect(await asRequest(() => t.db.query(show))).toEqual([{ statement_timeout: `${TIMEOUT_MS}ms` }]);
    expect(await asRequest(() => t.db.transaction(async (client) => (await client.query(show)).rows))).toEqual([{ statement_timeout: `${TIMEOUT_MS}ms` }]);
    expect(await t.db.query(show)).toEqual([{ statement_timeout: '0' }]);
    expect(await t.db.transaction(async (client) => (await client.query(show)).rows)).toEqual([{ statement_timeout: '0' }]);
  });

  it('lets event numbering wait on its lock longer than the time-out, then number', async () => {
    await locker.query(`SELECT pg_advisory_lock(hashtext('ledger_sequence_events'))`);
    try {
      // a committed posting wakes the sequencer, which waits for the lock
      const res = await t.request('POST', '/transactions', { key: f.key, body: { amount: 0.01, currency: 'PTS', from: w[13], to: w[12], projectId: f.projectId } });
      expect(res.status).toBe(201);
      const sequencer = await blockedBy(locker);
      // a request's statement that starts now is cut: the time-out passes meanwhile
      await expect(asRequest(() => t.db.query('SELECT pg_sleep(30)'))).rejects.toMatchObject({ code: '57014' });
      const [still] = await locker.query<{ waiting: boolean; query: string }>(
        `SELECT $2 = ANY (pg_blocking_pids(pid)) AS waiting, query FROM pg_stat_activity WHERE pid = $1`,
        [sequencer, locker.pid],
      );
      expect(still).toMatchObject({ waiting: true, query: expect.stringContaining('ledger_sequence_events') });
    } finally {
      await locker.query(`SELECT pg_advisory_unlock(hashtext('ledger_sequence_events'))`);
    }
    await t.app.services.eventSequencer.flush();
    expect(await t.db.query(`SELECT 1 FROM events WHERE seq IS NULL`)).toEqual([]);
  });
});
