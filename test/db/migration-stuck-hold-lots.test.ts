import { RELEASE_STUCK_HOLD_LOTS } from '../../migrations/Migration20261125120000_release_stuck_hold_lots.js';
import { LotRepository } from '../../src/domain/lots/lot.repository.js';
import { expectStatus, fundedProject, transfer } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The repair of Migration20261125120000: a hold an earlier version marked expired while it still
 * reserved lots (a capture or void refused with hold_expired) releases them; the released part of
 * a lot past its expiry expires, dated the repair, after every row the wallet already has.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 100 } });
});
afterAll(() => t.close());

it('releases the lots of holds no longer pending, expiring what is past its expiry, in date order', async () => {
  const key = await t.issueKey('stuck-hold-lots', 'enterprise');
  const f = await fundedProject(t, key, { customers: 2, fractions: 0, systemBalance: '1000' });
  const [wallet, other] = f.customers.map((c) => c.id);
  await expectStatus(t.request('PUT', `/assets/${f.assetId}`, { key, body: { expiresAfterSeconds: 3600 } }), 200);
  await transfer(t, f, f.system.id, wallet, 10);
  const hold = (await expectStatus(t.request('POST', '/holds', { key, body: { amount: 10, currency: f.symbol, from: wallet, to: other, projectId: f.projectId } }), 201)).hold;

  // the state the fault left: the hold expired and no longer counted in `held`, its lot reservation kept
  await t.db.query(`UPDATE lots SET expires_at = clock_timestamp()::timestamptz(3) - interval '10 seconds' WHERE wallet_id = $1`, [wallet]);
  await t.db.query(`UPDATE holds SET status = 'expired', expires_at = clock_timestamp()::timestamptz(3) - interval '5 seconds', updated_at = clock_timestamp()::timestamptz(3) - interval '5 seconds' WHERE id = $1`, [hold.id]);
  await t.db.query(`UPDATE balances SET held = held - 10 WHERE wallet_id = $1`, [wallet]);
  const lots = new LotRepository(t.db);
  expect((await lots.sweep(100)).expired).toBe(0); // the lot is all reserved: the sweeper cannot reach it
  const before = new Date();

  await t.db.query(RELEASE_STUCK_HOLD_LOTS);

  expect(await t.db.query(`SELECT hold_id FROM hold_lots WHERE hold_id = $1`, [hold.id])).toEqual([]);
  expect(await t.db.query(`SELECT remaining::text, held::text FROM lots WHERE wallet_id = $1`, [wallet])).toEqual([{ remaining: '0', held: '0' }]);
  expect(await t.db.query(`SELECT amount::text, held::text FROM balances WHERE wallet_id = $1`, [wallet])).toEqual([{ amount: '0', held: '0' }]);
  const rows = await t.db.query<{ kind: string; amount: string; created_at: Date }>(
    `SELECT kind, amount::text, created_at FROM transactions WHERE from_wallet_id = $1 OR to_wallet_id = $1 ORDER BY seq`,
    [wallet],
  );
  expect(rows.map((r) => [r.kind, r.amount])).toEqual([
    ['transfer', '10'],
    ['expiry', '10'],
  ]);
  expect(rows[1].created_at.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1);
  const dates = rows.map((r) => r.created_at.getTime());
  expect([...dates].sort((a, b) => a - b)).toEqual(dates);
  // nothing else to repair: running it again changes nothing
  await t.db.query(RELEASE_STUCK_HOLD_LOTS);
  expect((await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM transactions WHERE from_wallet_id = $1`, [wallet]))[0].n).toBe('1');
});
