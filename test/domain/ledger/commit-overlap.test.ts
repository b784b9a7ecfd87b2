import { PostingRepository, type OpenPosting } from '../../../src/domain/ledger/posting.repository.js';
import { PostingQueue } from '../../../src/domain/ledger/posting-queue.js';
import type { PostingLeg, PostingRequest, PostingResult } from '../../../src/domain/ledger/ledger.types.js';
import { fundedProject, transferLeg, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * The real repository on the real database; the first batch's COMMIT is held until the test
 * releases it (its transaction stays open, its wallets' row locks held), and every call is recorded.
 */
class GatedCommitRepository extends PostingRepository {
  readonly calls: string[][] = [];
  private release!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));
  private signalExecuted!: () => void;
  /** Resolves once the first batch's statement is done (its COMMIT not sent yet). */
  readonly firstExecuted = new Promise<void>((resolve) => (this.signalExecuted = resolve));

  override async postOpen(batch: PostingRequest[]): Promise<OpenPosting> {
    const first = this.calls.length === 0;
    this.calls.push(batch.map((r) => (r as PostingLeg).fromWalletId!));
    const open = await super.postOpen(batch);
    if (!first) return open;
    this.signalExecuted();
    return { results: open.results, commit: () => this.gate.then(() => open.commit()) };
  }

  releaseFirstCommit(): void {
    this.release();
  }
}

let t: TestApp;
let f: FundedProject;
beforeAll(async () => {
  t = await startTestApp();
  const key = await t.issueKey('commit-overlap-owner', 'enterprise');
  f = await fundedProject(t, key, { customers: 6, systemBalance: '1000' });
  for (const c of f.customers) {
    const res = await t.request('POST', '/transactions', { key, body: { amount: 10, currency: 'PTS', from: f.system.id, to: c.id, projectId: f.projectId } });
    expect(res.status).toBe(201);
  }
});
afterAll(() => t.close());

const transfer = (from: string, to: string, amount: bigint): PostingLeg => transferLeg(f, from, to, amount);

/** Read outside any request: a committed balance as every other session sees it. */
const balance = async (walletId: string): Promise<bigint> => {
  const [row] = await t.db.query<{ amount: string }>(`SELECT amount::text FROM balances WHERE wallet_id = $1`, [walletId]);
  return BigInt(row.amount);
};

describe('PostingQueue with overlapCommit', () => {
  it("runs the next batch on other wallets while a batch's COMMIT is under way, answers a batch only once committed, and keeps later postings on its wallets behind it", async () => {
    const repo = new GatedCommitRepository(t.db);
    const committed: PostingResult[][] = [];
    const queue = new PostingQueue(repo, (results) => committed.push([...results]), { overlapCommit: true });
    const w = f.customers.map((c) => c.id);
    let firstAnswered = false;
    const first = queue.submit(transfer(w[0], w[1], 100n)).then((result) => ((firstAnswered = true), result));
    await repo.firstExecuted;

    // the one slot is free again: a posting on other wallets runs and commits meanwhile
    const other = await queue.submit(transfer(w[2], w[3], 200n));
    expect(other.code).toBe('ok');
    expect(await balance(w[3])).toBe(1200n);
    // a posting on the committing batch's wallets waits for that commit (never passes it)
    const behind = queue.submit(transfer(w[1], w[4], 1050n)); // spends what the first one credits
    await new Promise((resolve) => setImmediate(resolve));
    expect(repo.calls).toEqual([[w[0]], [w[2]]]);
    // not answered, not reported to the commit hook, not visible: it is not committed yet
    expect(firstAnswered).toBe(false);
    expect(committed).toHaveLength(1);
    expect(await balance(w[1])).toBe(1000n);

    repo.releaseFirstCommit();
    const [a, c] = await Promise.all([first, behind]);
    expect([a.code, c.code]).toEqual(['ok', 'ok']);
    expect(repo.calls).toEqual([[w[0]], [w[2]], [w[1]]]);
    expect(BigInt(c.seq!)).toBeGreaterThan(BigInt(a.seq!));
    expect([await balance(w[0]), await balance(w[1]), await balance(w[4])]).toEqual([900n, 50n, 2050n]);
    expect(committed).toHaveLength(3);
  });
});
