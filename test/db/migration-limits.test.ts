import { BACKFILL_BALANCES, BACKFILL_TRANSACTIONS } from '../../migrations/Migration20261126170000_limits.js';
import { fundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Migration 20261126170000 computes the running totals of counted movements (CONTRACT §19) for the
 * history already posted; from then on the posting routines keep them. Both must agree: a history
 * of every kind (seeds, transfers, batch legs, captures, reversals) posted by the service, its
 * totals erased and backfilled by the migration's statements, reads back the same.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const TOTALS = `
  SELECT (SELECT json_agg(json_build_array(id, from_debited, to_credited) ORDER BY seq) FROM transactions) AS tx,
         (SELECT json_agg(json_build_array(wallet_id, asset_id, debited, credited) ORDER BY wallet_id, asset_id) FROM balances) AS balances`;

it('backfills the same running totals as the posting routines write', async () => {
  const e = await fundedProject(t, { owner: 'migration-limits' }, { fund: 100, customers: 3 });
  const [a, b, c] = e.customers;
  const send = (from: string, to: string, amount: number) =>
    t.request('POST', '/transactions', { key: e.key, body: { amount, currency: e.symbol, from, to, projectId: e.projectId } });
  const posted = (await send(a.id, b.id, 10)).body.transaction;
  await t.request('POST', `/transactions/${posted.id}/reverse`, { key: e.key, body: { projectId: e.projectId, amount: 4 } });
  await t.request('POST', '/transactions/batch', { key: e.key, body: { projectId: e.projectId, transfers: [{ amount: 3, currency: e.symbol, from: b.id, to: c.id }, { amount: 2, currency: e.symbol, from: c.id, to: a.id }] } });
  const hold = (await t.request('POST', '/holds', { key: e.key, body: { amount: 7, currency: e.symbol, from: c.id, to: a.id, projectId: e.projectId } })).body.hold;
  expect((await t.request('POST', `/holds/${hold.id}/capture`, { key: e.key, body: { projectId: e.projectId, amount: 5 } })).status).toBe(201);
  const [written] = await t.db.query<{ tx: unknown[][]; balances: unknown }>(TOTALS);
  expect(written.tx.every((row: unknown[]) => row[1] !== null || row[2] !== null)).toBe(true);
  await t.db.query(`UPDATE transactions SET from_debited = NULL, to_credited = NULL`);
  await t.db.query(`UPDATE balances SET debited = 0, credited = 0`);
  await t.db.query(BACKFILL_TRANSACTIONS);
  await t.db.query(BACKFILL_BALANCES);
  const [backfilled] = await t.db.query(TOTALS);
  expect(backfilled).toEqual(written);
});
