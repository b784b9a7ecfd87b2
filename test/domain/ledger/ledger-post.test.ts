import { randomUUID } from 'node:crypto';
import { PostingRepository } from '../../../src/domain/ledger/posting.repository.js';
import { fundedProject, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

let t: TestApp;
let f: FundedProject;
let repo: PostingRepository;
beforeAll(async () => {
  t = await startTestApp();
  const key = await t.issueKey('post-owner', 'enterprise');
  f = await fundedProject(t, key, { customers: 3, systemBalance: '100' });
  repo = new PostingRepository(t.db);
});
afterAll(() => t.close());

const minor = async (walletId: string) => {
  const [row] = await t.db.query<{ amount: string }>(`SELECT amount::text FROM balances WHERE wallet_id = $1`, [walletId]);
  return row ? BigInt(row.amount) : 0n;
};

describe('ledger_post (one batch, one database transaction, an outcome per element)', () => {
  it('applies elements in order and refuses one without affecting its neighbours', async () => {
    const [a, b] = f.customers;
    const system = f.system.id;
    const base = { kind: 'transfer' as const, projectId: f.projectId, assetId: f.assetId, requestKey: null };
    const results = await repo.post([
      { ...base, fromWalletId: system, toWalletId: a.id, amount: 6000n },
      { ...base, fromWalletId: system, toWalletId: b.id, amount: 6000n }, // only 4000 left: refused
      { ...base, fromWalletId: system, toWalletId: b.id, amount: 4000n },
      { ...base, fromWalletId: a.id, toWalletId: b.id, amount: 1n },
    ]);
    expect(results.map((r) => r.code)).toEqual(['ok', 'insufficient_funds', 'ok', 'ok']);
    expect(results[0]).toMatchObject({ fromBalance: 4000n, toBalance: 6000n });
    expect(results[2]).toMatchObject({ fromBalance: 0n, toBalance: 4000n });
    expect(results[3]).toMatchObject({ fromBalance: 5999n, toBalance: 4001n });
    expect(await minor(system)).toBe(0n);
    expect(await minor(a.id)).toBe(5999n);
    expect(await minor(b.id)).toBe(4001n);
  });

  it('refuses an element whose asset no longer exists (deleted between resolution and posting)', async () => {
    const [, , c] = f.customers;
    const [result] = await repo.post([{ kind: 'seed', projectId: f.projectId, assetId: randomUUID(), fromWalletId: null, toWalletId: c.id, amount: 5n, requestKey: null }]);
    expect(result.code).toBe('asset_missing');
    const [row] = await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM balances WHERE wallet_id = $1`, [c.id]);
    expect(row.n).toBe('0');
  });

  it('refuses an element touching a suspended wallet', async () => {
    const [a, , c] = f.customers;
    await t.db.query(`UPDATE wallets SET status = 'suspended' WHERE id = $1`, [c.id]);
    const [result] = await repo.post([{ kind: 'transfer', projectId: f.projectId, assetId: f.assetId, fromWalletId: a.id, toWalletId: c.id, amount: 1n, requestKey: null }]);
    expect(result.code).toBe('wallet_inactive');
    await t.db.query(`UPDATE wallets SET status = 'active' WHERE id = $1`, [c.id]);
  });

  it('answers a request key it has already posted with that posting, without posting again', async () => {
    const [a, b] = f.customers;
    const request = { kind: 'transfer' as const, projectId: f.projectId, assetId: f.assetId, fromWalletId: a.id, toWalletId: b.id, amount: 7n, requestKey: 'request-1' };
    const [first] = await repo.post([request]);
    const [again] = await repo.post([{ ...request }]);
    expect(first.code).toBe('ok');
    expect(again).toEqual(first);
    const [row] = await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM transactions WHERE request_key = 'request-1'`);
    expect(row.n).toBe('1');
  });

  it('refuses a request key that already stands for a different movement, writing nothing', async () => {
    const [a, b, c] = f.customers;
    const base = { kind: 'transfer' as const, projectId: f.projectId, assetId: f.assetId, requestKey: 'request-2' };
    const [first] = await repo.post([{ ...base, fromWalletId: a.id, toWalletId: b.id, amount: 3n }]);
    expect(first.code).toBe('ok');
    const before = await minor(c.id);
    const [other] = await repo.post([{ ...base, fromWalletId: a.id, toWalletId: c.id, amount: 3n }]);
    expect(other.code).toBe('request_key_mismatch');
    expect(await minor(c.id)).toBe(before);
  });

  it('rolls back only a refused group (an atomic batch), not its neighbours in the same call', async () => {
    const [a, b, c] = f.customers;
    const before = { a: await minor(a.id), b: await minor(b.id), c: await minor(c.id) };
    const leg = { kind: 'transfer' as const, projectId: f.projectId, assetId: f.assetId, requestKey: null };
    const results = await repo.post([
      { ...leg, fromWalletId: a.id, toWalletId: b.id, amount: 1n },
      { kind: 'group', legs: [{ ...leg, fromWalletId: a.id, toWalletId: c.id, amount: 2n }, { ...leg, fromWalletId: c.id, toWalletId: b.id, amount: 10n ** 15n }] },
      { kind: 'group', legs: [{ ...leg, fromWalletId: a.id, toWalletId: c.id, amount: 3n }, { ...leg, fromWalletId: c.id, toWalletId: b.id, amount: before.c + 3n }] },
    ]);
    expect(results.map((r) => r.code)).toEqual(['ok', 'insufficient_funds', 'ok']);
    expect(results[1].detail).toEqual({ index: 1 });
    expect(results[2].legs!.map((l) => l.fromBalance)).toEqual([before.a - 4n, 0n]);
    expect(await minor(a.id)).toBe(before.a - 4n);
    expect(await minor(b.id)).toBe(before.b + 1n + before.c + 3n);
    expect(await minor(c.id)).toBe(0n);
  });

  it('answers a hold request key it has already reserved with that hold, reserving once', async () => {
    const [a, b] = f.customers;
    const request = { kind: 'hold' as const, projectId: f.projectId, assetId: f.assetId, fromWalletId: a.id, toWalletId: b.id, amount: 1n, requestKey: 'hold-request-1' };
    const [first] = await repo.post([request]);
    const [again] = await repo.post([{ ...request }]);
    expect(first.code).toBe('ok');
    expect(again.holdId).toBe(first.holdId);
    const [row] = await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM holds WHERE request_key = 'hold-request-1'`);
    expect(row.n).toBe('1');
    const [other] = await repo.post([{ ...request, amount: 2n }]);
    expect(other.code).toBe('request_key_mismatch');
  });
});
