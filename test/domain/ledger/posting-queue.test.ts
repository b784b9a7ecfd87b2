import { PostingQueue } from '../../../src/domain/ledger/posting-queue.js';
import type { PostingRepository } from '../../../src/domain/ledger/posting.repository.js';
import type { PostingLeg, PostingRequest, PostingResult } from '../../../src/domain/ledger/ledger.types.js';

/** A repository double: records every batch; the first call fails with `firstError`. */
function repository(firstError: unknown): { repo: PostingRepository; batches: string[][]; release(): void } {
  const batches: string[][] = [];
  let gate!: () => void;
  const opened = new Promise<void>((resolve) => (gate = resolve));
  let calls = 0;
  const repo = {
    async post(batch: PostingRequest[]): Promise<PostingResult[]> {
      calls += 1;
      batches.push(batch.map((b) => (b as PostingLeg).toWalletId!));
      if (calls === 1) {
        await opened; // hold the first batch so the others queue up behind it
        return [{ code: 'ok', id: 'first' }];
      }
      if (calls === 2) throw firstError;
      return batch.map((b) => ({ code: 'ok', id: `tx-${(b as PostingLeg).toWalletId}` }));
    },
  } as unknown as PostingRepository;
  return { repo, batches, release: () => gate() };
}

const request = (to: string): PostingRequest => ({ kind: 'transfer', projectId: 1, assetId: 'a', fromWalletId: 'hot', toWalletId: to, amount: 1n, requestKey: null });

async function run(error: unknown) {
  const double = repository(error);
  const queue = new PostingQueue(double.repo);
  const first = queue.submit(request('r0'));
  const rest = ['r1', 'r2', 'r3'].map((to) => queue.submit(request(to)).then((r) => r.code, (e: Error) => `rejected: ${e.message}`));
  double.release();
  await first;
  return { outcomes: await Promise.all(rest), batches: double.batches };
}

describe('PostingQueue after a failed batch', () => {
  it('rejects every waiter, posting nothing again, when the outcome is unknown (connection lost)', async () => {
    const { outcomes, batches } = await run(new Error('Connection terminated unexpectedly'));
    expect(outcomes).toEqual(['rejected: Connection terminated unexpectedly', 'rejected: Connection terminated unexpectedly', 'rejected: Connection terminated unexpectedly']);
    expect(batches).toEqual([['r0'], ['r1', 'r2', 'r3']]);
  });

  it('posts the elements one by one when PostgreSQL reported the batch failed (rolled back)', async () => {
    const { outcomes, batches } = await run(Object.assign(new Error('value too long'), { code: '22001', severity: 'ERROR' }));
    expect(outcomes).toEqual(['ok', 'ok', 'ok']);
    expect(batches).toEqual([['r0'], ['r1', 'r2', 'r3'], ['r1'], ['r2'], ['r3']]);
  });

  it('treats a socket error code as an unknown outcome', async () => {
    const { outcomes } = await run(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    expect(outcomes.every((o) => o.startsWith('rejected'))).toBe(true);
  });
});

describe('PostingQueue commit hook', () => {
  it('answers a committed batch with its results even if the hook throws, and posts it once', async () => {
    let posts = 0;
    const repo = {
      async post(batch: PostingRequest[]): Promise<PostingResult[]> {
        posts += 1;
        return batch.map((b) => ({ code: 'ok', id: `tx-${(b as PostingLeg).toWalletId}` }));
      },
    } as unknown as PostingRepository;
    const queue = new PostingQueue(repo, () => {
      throw new Error('metrics exploded');
    });
    await expect(queue.submit(request('r0'))).resolves.toEqual({ code: 'ok', id: 'tx-r0' });
    expect(posts).toBe(1);
  });
});
