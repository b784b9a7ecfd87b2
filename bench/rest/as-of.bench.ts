import { performance } from 'node:perf_hooks';
import type { Database } from '../../src/db/database.js';
import { HistoryRepository } from '../../src/domain/ledger/history.repository.js';
import { fundedProject } from '../../test/support/fixtures.js';
import { insertFlatHistory, type FlatHistory } from '../../test/support/flat-history.js';
import { startTestApp, type HttpResult, type TestApp } from '../../test/support/test-app.js';

/**
 * Statements per request and p50 latency of reads as of a time (CONTRACT §14, issue 11's closing
 * figures) on a wallet with 10,000 and with 100,000 transactions (flat: one transfer after
 * another into it, written by generate_series), beside the same reads of the present. A
 * measurement, not a test: it is not part of `npm test` (it writes 110,000 transactions):
 *
 *   npm run bench:as-of
 */
const RUNS = 50;
const SIZES = [10_000, 100_000];

let t: TestApp;
let key: string;
const wallets = new Map<number, { id: string; assetId: string; history: FlatHistory }>();

beforeAll(async () => {
  t = await startTestApp();
  key = await t.issueKey('as-of-bench', 'enterprise');
  for (const n of SIZES) {
    const p = await fundedProject(t, key, { name: `${n} transactions`, customers: 1, systemBalance: 0 });
    const history = await insertFlatHistory(t.db, p.projectId, p.assetId, p.system.id, p.customers[0].id, n);
    wallets.set(n, { id: p.customers[0].id, assetId: p.assetId, history });
  }
  await t.db.query('VACUUM ANALYZE transactions');
}, 600_000);
afterAll(() => t.close());

async function measure(label: string, request: () => Promise<HttpResult>): Promise<string> {
  for (let i = 0; i < 5; i += 1) check(await request());
  const times: number[] = [];
  const statements = new Set<string>();
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    const res = await request();
    times.push(performance.now() - started);
    statements.add(res.headers.get('x-sql-statements') ?? '?');
    check(res);
  }
  times.sort((a, b) => a - b);
  return `${label.padEnd(64)} statements ${[...statements].join('/').padEnd(4)} p50 ${times[RUNS >> 1].toFixed(2).padStart(6)} ms   p90 ${times[Math.floor(RUNS * 0.9)].toFixed(2).padStart(6)} ms`;
}

function check(res: HttpResult): void {
  if (res.status !== 200 || res.body.errors) throw new Error(`${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
}

const GRAPHQL = `query($id: ID!, $asOf: DateTime) { wallet(id: $id) {
  balances(asOf: $asOf) { currency balance }
  transactions(asOf: $asOf, first: 20) { totalCount edges { node { id amount balance date } } } } }`;

/** The statement a repository call sends, captured instead of run. */
async function statementOf(call: (repository: HistoryRepository) => Promise<unknown>): Promise<{ sql: string; params: unknown[] }> {
  let captured: { sql: string; params: unknown[] } | undefined;
  await call(new HistoryRepository({ query: async (sql: string, params: unknown[] = []) => ((captured = { sql, params }), []) } as unknown as Database));
  return captured!;
}

/** Median planning and execution time, and pages touched, of one statement in PostgreSQL (EXPLAIN ANALYZE). */
async function inDatabase(label: string, statement: { sql: string; params: unknown[] }): Promise<string> {
  const runs: { planning: number; execution: number; pages: number }[] = [];
  for (let i = 0; i < 25; i += 1) {
    const [row] = await t.db.query<{ 'QUERY PLAN': [{ 'Planning Time': number; 'Execution Time': number; Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } }] }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.sql}`,
      statement.params,
    );
    const [plan] = row['QUERY PLAN'];
    runs.push({ planning: plan['Planning Time'], execution: plan['Execution Time'], pages: plan.Plan['Shared Hit Blocks'] + plan.Plan['Shared Read Blocks'] });
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1];
  return `${label.padEnd(64)} planning ${median(runs.map((r) => r.planning)).toFixed(2)} ms  execution ${median(runs.map((r) => r.execution)).toFixed(2)} ms  pages ${median(runs.map((r) => r.pages))}`;
}

describe('as-of reads', () => {
  it('in PostgreSQL: each statement on 10,000 and 100,000 transactions', async () => {
    const lines: string[] = [];
    for (const n of SIZES) {
      const { id, assetId, history } = wallets.get(n)!;
      const asOf = new Date(history.start.getTime() + n / 2);
      const [cut] = await new HistoryRepository(t.db).balancesAsOf([id], asOf, assetId);
      lines.push(await inDatabase(`${n} tx, middle: balancesAsOf (every currency's cut)`, await statementOf((r) => r.balancesAsOf([id], asOf))));
      lines.push(await inDatabase(`${n} tx, middle: recentAsOf (20 newest + 1)`, await statementOf((r) => r.recentAsOf([id], 21, asOf))));
      lines.push(await inDatabase(`${n} tx, middle: page 1 of the history up to the cut`, await statementOf((r) => r.page(id, assetId, 20, 0, String(BigInt(cut.cutSeq!) + 1n)))));
    }
    console.log(`as-of statements in PostgreSQL, median of 25 EXPLAIN ANALYZE\n${lines.join('\n')}`);
  }, 600_000);

  it('statements and p50 on 10,000 and 100,000 transactions', async () => {
    const lines: string[] = [];
    for (const n of SIZES) {
      const { id, history } = wallets.get(n)!;
      const at = (fraction: number) => new Date(history.start.getTime() + Math.round(n * fraction)).toISOString();
      for (const [where, asOf] of [['newest', history.end.toISOString()], ['middle', at(0.5)], ['oldest', at(0.001)]] as const) {
        lines.push(await measure(`${n} tx, asOf ${where}: GET /wallets/{id}?asOf=`, () => t.request('GET', `/wallets/${id}?asOf=${asOf}`, { key })));
        lines.push(await measure(`${n} tx, asOf ${where}: GET /transactions?asOf=`, () => t.request('GET', `/transactions?walletId=${id}&asOf=${asOf}`, { key })));
        lines.push(await measure(`${n} tx, asOf ${where}: GraphQL balances + transactions(asOf)`, () => t.graphql(key, GRAPHQL, { id, asOf })));
      }
      lines.push(await measure(`${n} tx, present: GET /wallets/{id}`, () => t.request('GET', `/wallets/${id}`, { key })));
      lines.push(await measure(`${n} tx, present: GET /transactions`, () => t.request('GET', `/transactions?walletId=${id}`, { key })));
      lines.push(await measure(`${n} tx, present: GraphQL (SQL plan)`, () => t.graphql(key, GRAPHQL, { id, asOf: null })));
    }
    console.log(`as-of reads, ${RUNS} sequential requests each (after 5 warm-up)\n${lines.join('\n')}`);
  }, 600_000);
});
