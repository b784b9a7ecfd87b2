import { PostingRepository } from '../../../src/domain/ledger/posting.repository.js';
import type { PostingRequest, WebhookCall } from '../../../src/domain/ledger/ledger.types.js';
import { PostingQueue } from '../../../src/domain/ledger/posting-queue.js';
import { fundedProject, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * webhook_post (src/domain/webhook/webhook_post.sql): a webhook flow's posting and its stored call
 * in one statement, through the PostingQueue that coalesces postings of one sender wallet.
 */
let t: TestApp;
let p: FundedProject;
let repository: PostingRepository;
beforeAll(async () => {
  t = await startTestApp();
  p = await fundedProject(t, await t.issueKey('webhook-post'), { customers: 2, systemBalance: 1000 });
  repository = new PostingRepository(t.db);
});
afterAll(() => t.close());

const call = (note: string): WebhookCall => ({ ownerId: 'webhook-post', flowId: 'reward', values: { note }, message: `reward: ${note}` });
const reward = (minor: bigint, note: string | null, requestKey: string | null = null): PostingRequest => ({
  kind: 'transfer',
  projectId: p.projectId,
  assetId: p.assetId,
  fromWalletId: p.system.id,
  toWalletId: p.customers[0].id,
  amount: minor,
  requestKey,
  ...(note === null ? {} : { call: call(note) }),
});
const storedCalls = (note: string) =>
  t.db.query<{ transaction_id: string; same_transaction: boolean }>(
    `SELECT e.transaction_id, e.xmin::text = t.xmin::text AS same_transaction
       FROM webhook_events e JOIN transactions t ON t.id = e.transaction_id WHERE e."values"->>'note' = $1`,
    [note],
  );

describe('webhook_post', () => {
  it('stores every call of a coalesced batch in the batch’s transaction, beside postings without a call', async () => {
    const queue = new PostingQueue(repository);
    // The first posting goes at once; the four submitted meanwhile wait and go as one batch.
    const first = queue.submit(reward(1n, 'batch-0'));
    const rest = [queue.submit(reward(2n, 'batch-1')), queue.submit(reward(3n, null)), queue.submit(reward(4n, 'batch-3')), queue.submit(reward(5n, 'batch-4'))];
    const results = await Promise.all([first, ...rest]);
    expect(results.map((r) => r.code)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    const [batchOf] = await t.db.query<{ n: string }>(`SELECT count(DISTINCT xmin::text)::text AS n FROM transactions WHERE id = ANY ($1::uuid[])`, [results.slice(1).map((r) => r.id)]);
    expect(batchOf.n).toBe('1'); // the four went together
    for (const [i, note] of ['batch-0', 'batch-1', 'batch-3', 'batch-4'].entries()) {
      expect(await storedCalls(note)).toEqual([{ transaction_id: results[[0, 1, 3, 4][i]].id, same_transaction: true }]);
    }
    const [{ n }] = await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM webhook_events WHERE transaction_id = $1`, [results[2].id]);
    expect(n).toBe('0'); // no call, nothing stored
  });

  it('a call that cannot be stored rolls its posting back; the rest of its batch posts', async () => {
    await t.db.query(`ALTER TABLE webhook_events ADD CONSTRAINT test_refuse_doomed CHECK (("values"->>'note') IS DISTINCT FROM 'doomed') NOT VALID`);
    try {
      const queue = new PostingQueue(repository);
      const first = queue.submit(reward(1n, 'alone'));
      const batch = ['kept-1', 'doomed', 'kept-2'].map((note) => queue.submit(reward(7n, note)).then((r) => r.code, (e: { code?: string }) => `error ${e.code}`));
      await first;
      expect(await Promise.all(batch)).toEqual(['ok', 'error 23514', 'ok']);
      const [{ n }] = await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM transactions WHERE project_id = $1 AND amount = 7`, [p.projectId]);
      expect(n).toBe('2');
      expect(await storedCalls('doomed')).toEqual([]);
    } finally {
      await t.db.query(`ALTER TABLE webhook_events DROP CONSTRAINT test_refuse_doomed`);
    }
  });

  it('stores nothing again when a retried request answers the posting it made before', async () => {
    const [once] = await repository.post([reward(9n, 'retried', 'request-key-1')]);
    const [again] = await repository.post([reward(9n, 'retried', 'request-key-1')]);
    expect(again).toEqual(once);
    expect(await storedCalls('retried')).toEqual([{ transaction_id: once.id, same_transaction: true }]);
  });

  it('stores nothing for a refused posting (the service records the refusal)', async () => {
    const [refused] = await repository.post([reward(10n ** 12n, 'too-much')]);
    expect(refused.code).toBe('insufficient_funds');
    expect(await t.db.query(`SELECT 1 FROM webhook_events WHERE "values"->>'note' = 'too-much'`)).toEqual([]);
  });
});
