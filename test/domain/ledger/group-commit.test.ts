import pg from 'pg';
import { PostingRepository } from '../../../src/domain/ledger/posting.repository.js';
import { PostingQueue } from '../../../src/domain/ledger/posting-queue.js';
import type { PostingLeg, PostingRequest, PostingResult } from '../../../src/domain/ledger/ledger.types.js';
import { fundedProject, transferLeg, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/** The real repository on the real database, recording what each `ledger_post` call carried. */
class RecordingRepository extends PostingRepository {
  readonly calls: PostingRequest[][] = [];
  override async post(batch: PostingRequest[]): Promise<PostingResult[]> {
    this.calls.push(batch);
    return super.post(batch);
  }
}

let t: TestApp;
let f: FundedProject;
beforeAll(async () => {
  t = await startTestApp();
  const key = await t.issueKey('group-commit-owner', 'enterprise');
  f = await fundedProject(t, key, { customers: 14, systemBalance: '1000' });
  // 10.00 PTS to each customer
  for (const c of f.customers) {
    const res = await t.request('POST', '/transactions', { key, body: { amount: 10, currency: 'PTS', from: f.system.id, to: c.id, projectId: f.projectId } });
    expect(res.status).toBe(201);
  }
});
afterAll(() => t.close());

const transfer = (from: string, to: string, amount: bigint): PostingLeg => transferLeg(f, from, to, amount);

const balance = async (walletId: string): Promise<bigint> => {
  const [row] = await t.db.query<{ amount: string }>(`SELECT amount::text FROM balances WHERE wallet_id = $1`, [walletId]);
  return BigInt(row.amount);
};

/** The database transaction that wrote each transaction row (equal xmin: one commit). */
const writers = async (ids: string[]): Promise<string[]> => {
  const rows = await t.db.query<{ id: string; xid: string }>(`SELECT id, xmin::text AS xid FROM transactions WHERE id = ANY ($1::uuid[])`, [ids]);
  const byId = new Map(rows.map((r) => [r.id, r.xid]));
  return ids.map((id) => byId.get(id)!);
};

describe('PostingQueue: group commit over every wallet', () => {
  it('gathers postings on disjoint wallets that arrive while the pipeline is full into one ledger_post call and one commit', async () => {
    const repo = new RecordingRepository(t.db);
    const queue = new PostingQueue(repo, () => undefined, { pipeline: 2 });
    const w = f.customers.map((c) => c.id);
    // two postings take both slots at once; the next four, on four other pairs of wallets, wait for a slot
    const first = [queue.submit(transfer(w[0], w[1], 100n)), queue.submit(transfer(w[2], w[3], 100n))];
    const gathered = [
      queue.submit(transfer(w[4], w[5], 1n)),
      queue.submit(transfer(w[6], w[7], 2n)),
      queue.submit(transfer(w[8], w[9], 3n)),
      queue.submit(transfer(w[10], w[11], 4n)),
    ];
    const results = await Promise.all([...first, ...gathered]);
    expect(results.map((r) => r.code)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
    expect(repo.calls.map((batch) => batch.length)).toEqual([1, 1, 4]);
    const xids = await writers(results.slice(2).map((r) => r.id!));
    expect(new Set(xids).size).toBe(1);
    // each answer carries its own exact resulting balances
    for (const [i, r] of results.slice(2).entries()) {
      expect(r.fromBalance).toBe(1000n - BigInt(i + 1));
      expect(r.toBalance).toBe(1000n + BigInt(i + 1));
      expect(await balance(w[4 + 2 * i])).toBe(r.fromBalance);
      expect(await balance(w[5 + 2 * i])).toBe(r.toBalance);
    }
    // undo, so the other tests start from 10.00 everywhere
    await Promise.all([0, 2, 4, 6, 8, 10].map((k, i) => queue.submit(transfer(w[k + 1], w[k], i < 2 ? 100n : BigInt(i - 1)))));
  });

  it('refuses one element of a gathered batch and posts its neighbours in the same commit, with exact balances', async () => {
    const repo = new RecordingRepository(t.db);
    const queue = new PostingQueue(repo, () => undefined, { pipeline: 1 });
    const w = f.customers.map((c) => c.id);
    const before = await Promise.all(w.slice(0, 8).map(balance));
    const blocker = queue.submit(transfer(w[12], w[13], 1n));
    const gathered = [
      queue.submit(transfer(w[0], w[1], 250n)),
      queue.submit(transfer(w[2], w[3], 1001n)), // 10.01 > 10.00: insufficient_funds
      queue.submit(transfer(w[4], w[5], 1000n)), // all of it
      queue.submit(transfer(w[1], w[6], 1250n)), // spends what the first one credited
    ];
    await blocker;
    const results = await Promise.all(gathered);
    expect(results.map((r) => r.code)).toEqual(['ok', 'insufficient_funds', 'ok', 'ok']);
    expect(repo.calls.map((batch) => batch.length)).toEqual([1, 4]);
    expect(results[1]).toMatchObject({ code: 'insufficient_funds', id: undefined, fromBalance: undefined });
    expect(results[0]).toMatchObject({ fromBalance: 750n, toBalance: 1250n });
    expect(results[2]).toMatchObject({ fromBalance: 0n, toBalance: 2000n });
    expect(results[3]).toMatchObject({ fromBalance: 0n, toBalance: 2250n });
    expect(new Set(await writers([results[0].id!, results[2].id!, results[3].id!])).size).toBe(1);
    const after = await Promise.all(w.slice(0, 8).map(balance));
    expect(after.map((b, i) => b - before[i])).toEqual([-250n, -1000n, 0n, 0n, -1000n, 1000n, 1250n, 0n]);
    const [count] = await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM transactions WHERE from_wallet_id = $1 AND amount = 1001`, [w[2]]);
    expect(count.n).toBe('0');
  });

  it('keeps postings on one wallet in arrival order: a request passed over holds back later requests on its wallets', async () => {
    const repo = new RecordingRepository(t.db);
    const queue = new PostingQueue(repo, () => undefined, { pipeline: 2 });
    const w = f.customers.map((c) => c.id);
    // another session holds w[7]: the posting on it stays in the database until released
    const locker = new pg.Client({ connectionString: t.databaseUrl });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM wallets WHERE id = $1 FOR NO KEY UPDATE', [w[7]]);
    try {
      const held = queue.submit(transfer(w[7], w[8], 1n)); // slot 1, waits on the lock
      const free = queue.submit(transfer(w[9], w[10], 1n)); // slot 2
      const behindHeld = queue.submit(transfer(w[7], w[11], 1n)); // w[7] busy: waits
      const behindThat = queue.submit(transfer(w[11], w[12], 1n)); // w[11] is behind: waits too
      const independent = queue.submit(transfer(w[13], w[9], 1n)); // waits for slot 2 only
      await free;
      await independent;
      expect(repo.calls.map((batch) => batch.map((r) => (r as PostingLeg).fromWalletId))).toEqual([[w[7]], [w[9]], [w[13]]]);
      await locker.query('COMMIT');
      const results = await Promise.all([held, behindHeld, behindThat]);
      expect(results.map((r) => r.code)).toEqual(['ok', 'ok', 'ok']);
      expect(repo.calls.slice(3).map((batch) => batch.map((r) => (r as PostingLeg).fromWalletId))).toEqual([[w[7], w[11]]]);
      expect(BigInt(results[2].seq!)).toBeGreaterThan(BigInt(results[1].seq!));
    } finally {
      await locker.end();
    }
  });

  it('never puts more than maxLegs legs into one call (a group counts its legs), and never fewer than one request', async () => {
    const repo = new RecordingRepository(t.db);
    const queue = new PostingQueue(repo, () => undefined, { pipeline: 1, maxLegs: 3 });
    const w = f.customers.map((c) => c.id);
    const group: PostingRequest = { kind: 'group', legs: [transfer(w[0], w[1], 1n), transfer(w[1], w[2], 1n), transfer(w[2], w[3], 1n), transfer(w[3], w[0], 1n)] };
    const all = [
      queue.submit(transfer(w[12], w[13], 1n)),
      queue.submit(transfer(w[5], w[4], 1n)),
      queue.submit(group),
      queue.submit(transfer(w[6], w[7], 1n)),
      queue.submit(transfer(w[8], w[9], 1n)),
      queue.submit(transfer(w[10], w[11], 1n)),
    ];
    const results = await Promise.all(all);
    expect(results.map((r) => r.code)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
    // the first leaves alone; then at most 3 legs (the group, 4 legs, does not fit beside another
    // request and leaves alone next, first in line); then the rest
    expect(repo.calls.map((batch) => batch.length)).toEqual([1, 3, 1, 1]);
    expect(repo.calls[2]).toEqual([group]);
  });
});
