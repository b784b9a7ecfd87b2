import type { Database } from '../../../src/db/database.js';
import { PostingRepository } from '../../../src/domain/ledger/posting.repository.js';
import { fundedProject, UNKNOWN_UUID, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

let t: TestApp;
let f: FundedProject;
let other: FundedProject;
beforeAll(async () => {
  t = await startTestApp();
  f = await fundedProject(t, await t.issueKey('resolve-owner', 'enterprise'), { customers: 4 });
  other = await fundedProject(t, await t.issueKey('resolve-other', 'enterprise'), { customers: 1 });
});
afterAll(() => t.close());

/** The real database, counting the statements sent through it. */
function counting(db: Database): { db: Database; statements: () => number } {
  let statements = 0;
  const spy: Database = { ...db, query: (text, params, name) => ((statements += 1), db.query(text, params, name)) };
  return { db: spy, statements: () => statements };
}

describe('PostingRepository.resolvePosting (concurrent look-ups gathered into few statements)', () => {
  it('answers each request its own project, currency and wallets, by id or address, while sharing statements', async () => {
    const { db, statements } = counting(t.db);
    const repo = new PostingRepository(db);
    const [a, b, c, d] = f.customers;
    const asked = [
      repo.resolvePosting('resolve-owner', f.projectId, 'PTS', a.id, b.id),
      repo.resolvePosting('resolve-owner', f.projectId, 'PTS', c.address, d.address),
      repo.resolvePosting('resolve-owner', f.projectId, 'PTS', null, f.system.id), // a seed: no sender
      repo.resolvePosting('resolve-owner', f.projectId, 'NOPE', a.id, UNKNOWN_UUID),
      repo.resolvePosting('resolve-owner', other.projectId, 'PTS', other.customers[0].id, other.system.id), // not the caller's
      repo.resolvePosting('resolve-other', other.projectId, 'PTS', other.customers[0].address, other.system.id),
      repo.resolvePosting('resolve-owner', f.projectId, 'PTS', 'no-such-address', d.id),
    ];
    const [byId, byAddress, seed, unknown, foreign, theirs, missing] = await Promise.all(asked);
    const asset = { id: f.assetId, symbol: 'PTS', fractions: 2 };
    expect(byId).toEqual({ projectId: f.projectId, asset, from: { id: a.id, address: a.address, type: 'customer', status: 'active' }, to: { id: b.id, address: b.address, type: 'customer', status: 'active' } });
    expect(byAddress).toMatchObject({ from: { id: c.id }, to: { id: d.id } });
    expect(seed).toMatchObject({ from: null, to: { id: f.system.id, type: 'system' } });
    expect(unknown).toEqual({ projectId: f.projectId, asset: null, from: { id: a.id, address: a.address, type: 'customer', status: 'active' }, to: null });
    expect(foreign).toBeNull();
    expect(theirs).toMatchObject({ projectId: other.projectId, asset: { id: other.assetId }, from: { id: other.customers[0].id }, to: { id: other.system.id } });
    expect(missing).toMatchObject({ from: null, to: { id: d.id } });
    // two slots: the first two leave alone, the five others gather into one statement
    expect(statements()).toBe(3);
  });

  it('an id wins over an address that names another wallet', async () => {
    const [a, b] = f.customers;
    await t.db.query(`UPDATE wallets SET address = $1 WHERE id = $2`, [b.id, a.id]); // a's address spells b's id
    try {
      const context = await new PostingRepository(t.db).resolvePosting('resolve-owner', f.projectId, 'PTS', b.id, a.id);
      expect(context).toMatchObject({ from: { id: b.id }, to: { id: a.id } });
    } finally {
      await t.db.query(`UPDATE wallets SET address = $1 WHERE id = $2`, [a.address, a.id]);
    }
  });

  it('fails a key PostgreSQL cannot read alone, not its neighbours', async () => {
    const repo = new PostingRepository(t.db);
    const [a, b] = f.customers;
    const asked = [
      repo.resolvePosting('resolve-owner', f.projectId, 'PTS', a.id, b.id),
      repo.resolvePosting('resolve-owner', f.projectId, 'PTS', a.id, b.id),
      repo.resolvePosting('resolve-owner', f.projectId, 'PT\u0000S', a.id, b.id),
      repo.resolvePosting('resolve-owner', f.projectId, 'PTS', b.id, a.id),
    ].map((p) => p.then((c) => c?.from?.id, (e: { code?: string }) => `failed ${e.code}`));
    expect(await Promise.all(asked)).toEqual([a.id, a.id, 'failed 22021', b.id]);
  });
});
