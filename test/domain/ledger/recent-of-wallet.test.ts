import { randomUUID } from 'node:crypto';
import { openDatabase, type Database } from '../../../src/db/database.js';
import { HistoryRepository } from '../../../src/domain/ledger/history.repository.js';
import { recentOfWallet } from '../../../src/domain/ledger/ledger.sql.js';
import { createLogger } from '../../../src/logger.js';
import { createTestDatabase } from '../../support/database.js';
import { insertFlatHistory } from '../../support/flat-history.js';

/**
 * The newest transactions of a busy wallet (recentOfWallet in ledger.sql.ts) among many quiet
 * ones: PostgreSQL estimates every wallet's rows as the average (a few), and with a known LIMIT
 * it once read a busy wallet's whole history (a bitmap scan, then a sort) to keep the newest
 * five. Each side must be an ordered index scan that stops after the page.
 *
 * A guard of the plan's shape and of the answer, not the proof of the fix: on this small data set
 * PostgreSQL picks the index scans even with constant LIMITs (tried: one wallet or a page of 100,
 * random insertion order). The plan that read the whole history, and the sub-select LIMITs that
 * fixed it, are in bench/results/2026-11-27-reads-2.txt (EXPLAIN on shared/perf's own database).
 */
let db: Database;
let busy: string;
const BUSY_SENDS = 1_000;
const QUIET_WALLETS = 2_000;
const QUIET_SENDS = 2;

beforeAll(async () => {
  db = await openDatabase(await createTestDatabase(), createLogger('silent'), 2);
  await db.query(`INSERT INTO owners (id, plan_code, subscription_code) VALUES ('o', 'pro', 's')`);
  const [{ id: projectId }] = await db.query<{ id: number }>(`INSERT INTO projects (owner_id, name) VALUES ('o', 'p') RETURNING id`);
  const assetId = randomUUID();
  await db.query(`INSERT INTO assets (id, project_id, owner_id, name, symbol, fractions) VALUES ($1, $2, 'o', 'P', 'PTS', 0)`, [assetId, projectId]);
  busy = randomUUID();
  const customer = randomUUID();
  await db.query(`INSERT INTO wallets (id, project_id, owner_id, address, type) VALUES ($1, $3, 'o', 'sys', 'system'), ($2, $3, 'o', 'cus', 'customer')`, [busy, customer, projectId]);
  // quiet wallets, a few sends each (to the customer) in random order, as a ledger interleaves them: the average sender has a few rows, scattered
  await db.query(
    `WITH w AS (
       INSERT INTO wallets (id, project_id, owner_id, address, type)
       SELECT gen_random_uuid(), $1, 'o', 'q' || i, 'customer' FROM generate_series(1, $2::int) AS i RETURNING id)
     INSERT INTO transactions (project_id, asset_id, kind, from_wallet_id, to_wallet_id, amount, from_balance, to_balance, from_count, to_count)
     SELECT $1, $3, 'transfer', w.id, $4, 1, 0, 1, n, 1 FROM w, generate_series(1, $5::int) AS n ORDER BY random()`,
    [projectId, QUIET_WALLETS, assetId, customer, QUIET_SENDS],
  );
  await insertFlatHistory(db, projectId, assetId, busy, customer, BUSY_SENDS); // analyzes
});
afterAll(() => db.close());

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

it("reads a busy wallet's newest transactions by ordered index scans, never its whole history", async () => {
  // as the SQL plans of GraphQL reads use it: a page's wallets, each one's newest rows (a literal limit)
  const sql = `SELECT t.* FROM wallets w CROSS JOIN LATERAL (${recentOfWallet('w.id', 'NULL::bigint', '6')}) t WHERE w.id = ANY ($1::uuid[])`;
  const [row] = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, [[busy]]);
  const nodes: PlanNode[] = [];
  const walk = (node: PlanNode) => (nodes.push(node), node.Plans?.forEach(walk));
  walk(row['QUERY PLAN'][0].Plan);
  const scans = nodes.filter((node) => node['Relation Name'] === 'transactions');
  expect(scans.map((node) => node['Node Type'])).toEqual(['Index Scan', 'Index Scan']);
  // each side stops after the page (6 rows), however long the wallet's history
  for (const scan of scans) expect(scan['Actual Rows'] * scan['Actual Loops']).toBeLessThanOrEqual(6);

  const recent = await new HistoryRepository(db).recent([busy], 5);
  expect(recent.map((r) => r.fromWalletId)).toEqual(Array(5).fill(busy));
  expect(recent.map((r) => r.balance)).toEqual([0n, 1n, 2n, 3n, 4n]);
});
