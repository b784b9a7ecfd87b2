import { expectStatus, fundedProject, type FundedProject, type WalletRef } from './fixtures.js';
import type { TestApp } from './test-app.js';

/**
 * A history dated at chosen instants, for reads as of a time (CONTRACT §14). Posted through the
 * API in date order, then dated by SQL (the API only ever stores now()); the project's wallets
 * were created on 1 January, except c1, created on 2 January:
 *
 *   #  date (2026)                 movement             customer c0 (PTS / GEM)
 *   0  01-01 10:00:00.000Z  seed  @mint → system 1000 PTS
 *   1  01-02 10:00:00.123Z        system → c0   100 PTS    100 / 0
 *   2  01-02 10:00:00.124Z        system → c0    50 PTS    150 / 0
 *   3  01-02 11:00:00.000Z  seed  @mint → system   10 GEM
 *   4  01-03 00:00:00.000Z        c0 → system    30 PTS    120 / 0
 *   5  01-03 12:00:00.000Z        system → c0     4 GEM    120 / 4
 *   6  01-04 00:00:00.000Z        system → c0     7 PTS    127 / 4
 */
export const DATES = [
  '2026-01-01T10:00:00.000Z',
  '2026-01-02T10:00:00.123Z',
  '2026-01-02T10:00:00.124Z',
  '2026-01-02T11:00:00.000Z',
  '2026-01-03T00:00:00.000Z',
  '2026-01-03T12:00:00.000Z',
  '2026-01-04T00:00:00.000Z',
];
export const CREATED = '2026-01-01T00:00:00.000Z';
export const C1_CREATED = '2026-01-02T00:00:00.000Z';

export interface DatedHistory {
  project: FundedProject;
  system: WalletRef;
  c0: WalletRef;
  c1: WalletRef;
  /** Transaction ids, in the order of DATES. */
  ids: string[];
}

export async function datedHistory(t: TestApp, key: string): Promise<DatedHistory> {
  const project = await fundedProject(t, key, { name: 'Dated history', symbol: 'PTS', fractions: 2, customers: 2, systemBalance: 1000 });
  const [c0, c1] = project.customers;
  const system = project.system;
  const post = (path: string, body: Record<string, unknown>) => expectStatus(t.request('POST', path, { key, body: { projectId: project.projectId, ...body } }), 201);
  await post('/assets', { name: 'Gems', symbol: 'GEM', fractions: 0 });
  await post('/transactions', { amount: 100, currency: 'PTS', from: system.id, to: c0.id });
  await post('/transactions', { amount: 50, currency: 'PTS', from: system.id, to: c0.id });
  await post('/transactions/seed', { amount: 10, currency: 'GEM', to: system.id });
  await post('/transactions', { amount: 30, currency: 'PTS', from: c0.id, to: system.id });
  await post('/transactions', { amount: 4, currency: 'GEM', from: system.id, to: c0.id });
  await post('/transactions', { amount: 7, currency: 'PTS', from: system.id, to: c0.id });
  const ids = (await t.db.query<{ id: string }>(`SELECT id FROM transactions WHERE project_id = $1 ORDER BY seq`, [project.projectId])).map((r) => r.id);
  if (ids.length !== DATES.length) throw new Error(`expected ${DATES.length} transactions, found ${ids.length}`);
  await t.db.query(`UPDATE transactions t SET created_at = x.date FROM unnest($1::uuid[], $2::timestamptz[]) AS x(id, date) WHERE t.id = x.id`, [ids, DATES]);
  await t.db.query(`UPDATE wallets SET created_at = CASE WHEN id = $2 THEN $3::timestamptz ELSE $4::timestamptz END WHERE project_id = $1`, [project.projectId, c1.id, C1_CREATED, CREATED]);
  return { project, system, c0, c1, ids };
}
