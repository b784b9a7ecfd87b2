import { expectStatus, fundedProject, type FundedProject } from '../../support/fixtures.js';
import { groupSumDrift } from '../../support/group-oracle.js';
import { openLocker } from '../../support/locks.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * Balances change outside postings too: the sweeper releases expired holds (holds_sweep.sql). A
 * group's `held` stops counting an expired hold at its instant, as a wallet's does, and the
 * stored sums follow the sweeper's release in the same commit (CONTRACT §29).
 */
let t: TestApp;
let p: FundedProject;

beforeAll(async () => {
  t = await startTestApp();
  p = await fundedProject(t, { owner: 'groups-sweep' }, { customers: 2, fund: 10 });
});
afterAll(() => t.close());

describe('an expired hold of a grouped wallet', () => {
  it('stops counting in the group at once, and the sweeper’s release moves the stored sums', async () => {
    const [alice, bob] = p.customers;
    const group = (await expectStatus(t.request('POST', '/wallet-groups', { key: p.key, body: { projectId: p.projectId, name: 'Family' } }), 201)).group;
    const child = (await expectStatus(t.request('POST', '/wallet-groups', { key: p.key, body: { projectId: p.projectId, name: 'Kids', parentId: group.id } }), 201)).group;
    await expectStatus(t.request('PUT', `/wallet-groups/${child.id}/wallets/${alice.id}`, { key: p.key, body: { projectId: p.projectId } }), 200);
    const hold = await expectStatus(t.request('POST', '/holds', { key: p.key, body: { amount: 4, currency: p.symbol, from: alice.id, to: bob.id, projectId: p.projectId, expiresIn: 3600 } }), 201);
    const read = async () => (await expectStatus(t.request('GET', `/wallet-groups/${group.id}`, { key: p.key }), 200)).group.balances;
    expect(await read()).toEqual([{ currency: p.symbol, balance: 10, held: 4, available: 6, incoming: 0, wallets: 1 }]);

    // alice's row held by another session: the app's own sweeper skips her wallet until then
    const locker = await openLocker(t.databaseUrl);
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM wallets WHERE id = $1 FOR NO KEY UPDATE', [alice.id]);
      await t.db.query(`UPDATE holds SET expires_at = now() - interval '1 second' WHERE id = $1`, [hold.hold.id]);
      expect(await read()).toEqual([{ currency: p.symbol, balance: 10, held: 0, available: 10, incoming: 0, wallets: 1 }]);
      const [stored] = await t.db.query<{ held: string }>(`SELECT held::text FROM wallet_group_balances WHERE project_id = $1 AND group_id = $2`, [p.projectId, group.id]);
      expect(stored.held).toBe('400'); // not released yet: the read subtracted the expired hold
      await locker.query('COMMIT');
    } finally {
      await locker.end();
    }

    await t.db.query(`SELECT * FROM holds_sweep(100)`);
    const [released] = await t.db.query<{ held: string }>(`SELECT held::text FROM wallet_group_balances WHERE project_id = $1 AND group_id = $2`, [p.projectId, group.id]);
    expect(released.held).toBe('0');
    expect(await read()).toEqual([{ currency: p.symbol, balance: 10, held: 0, available: 10, incoming: 0, wallets: 1 }]);
    expect(await groupSumDrift(t, p.projectId)).toEqual([]);
  });
});
