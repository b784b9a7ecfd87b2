import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { addTransactions, BASE, createProject, type SeededProject } from '../lib/search-seed.js';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { ProjectWalletsDocument } from '../../test/graphql/generated/graphql.js';
import { raw, run, type GraphQLResult } from '../../test/graphql/support/client.js';
import { operationCost } from '../../src/graphql/limits/cost.js';
import { buildLedgerSchema } from '../../src/graphql/schema.js';
import { parse, print } from 'graphql';

/**
 * What a search and an analytics field cost next to the fields the cost model already prices
 * (docs/decisions/graphql-cost-expensive-fields.md): how long each request holds request
 * connections (the shared resource a hostile document exhausts: the sum, over its checkouts, of
 * acquire to release), set against the benchmark query's (cost 2,903) time per cost unit. Time on
 * a connection, rather than over HTTP, leaves out parsing, validation and the HTTP round trip,
 * which no statement weight is about. A measurement, not a test:
 *
 *   npx tsc -p tsconfig.json && NODE_ENV=production NODE_OPTIONS=--experimental-vm-modules npx jest --config jest.bench.config.js bench/graphql/cost-weights.bench.ts
 *
 * The project is bench/lib/search-seed.js's (1,000 wallets; transactions written by SQL), at
 * 10,000 and then 100,000 transactions, vacuumed and analysed after each.
 */
const RUNS = 25;
const WARM_UP = 10;
const SIZES = [10_000, 100_000];

let t: TestApp;
let project: SeededProject;

/** Milliseconds of request connections held so far (every checkout, from acquire to release). */
let heldMs = 0;

function watchConnections(pool: TestApp['db']['pool']): void {
  const since = new WeakMap<object, number>();
  pool.on('acquire', (client) => since.set(client, performance.now()));
  pool.on('release', (_error, client) => {
    heldMs += performance.now() - (since.get(client) ?? performance.now());
  });
}

/** p50 and minimum over RUNS, after WARM_UP runs, of the connection time one request holds. */
async function timeOf(request: () => Promise<GraphQLResult<unknown>>): Promise<{ p50: number; min: number }> {
  for (let i = 0; i < WARM_UP; i += 1) expectClean(await request());
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const before = heldMs;
    expectClean(await request());
    times.push(heldMs - before);
  }
  times.sort((a, b) => a - b);
  return { p50: times[RUNS >> 1], min: times[0] };
}

function expectClean(res: GraphQLResult<unknown>): void {
  if (res.body.errors?.length) throw new Error(JSON.stringify(res.body.errors));
}

const search = (filter: string, first = 20) => `query($id: ID!) { project(id: $id) { transactions(first: ${first}${filter ? `, filter: ${filter}` : ''}) { edges { node { id amount balance date } } pageInfo { hasNextPage } } } }`;
const hour = 3_600_000;
const analytics = (interval: string, buckets: number) => {
  const since = new Date(BASE.getTime()).toISOString();
  const until = new Date(BASE.getTime() + buckets * (interval === 'hour' ? hour : 24 * hour)).toISOString();
  return `query($id: ID!) { project(id: $id) { analytics(interval: "${interval}", since: "${since}", until: "${until}") { totals { issued outstanding } series { start issued activeWallets } } } }`;
};

describe('cost weights', () => {
  beforeAll(async () => {
    t = await startTestApp({ graphqlMaxCost: 1_000_000 });
    project = await createProject(t.db.pool, 'cost-weights');
    watchConnections(t.db.pool);
  }, 600_000);
  afterAll(() => t?.close());

  it('prints each field’s time and the cost it would need', async () => {
    const { schema } = await buildLedgerSchema();
    const key = project.apiKey;
    const id = String(project.projectId);
    const lines: string[] = [`cost weights: milliseconds of request connections one request holds (acquire to release, summed), p50 and min over ${RUNS} runs after ${WARM_UP} warm-up runs; units = ms ÷ the benchmark query's ms per cost unit`];
    let seeded = 0;
    for (const size of SIZES) {
      await addTransactions(t.db.pool, project, seeded + 1, size);
      seeded = size;
      await t.db.pool.query('VACUUM ANALYZE transactions');
      await t.db.pool.query('SELECT analytics_rebuild($1)', [project.projectId]);
      const nested = await timeOf(() => run(t, key, ProjectWalletsDocument, { id, first: 100, recent: 5 }));
      const msPerUnit = nested.p50 / 2_903;
      lines.push(`\n######## ${size.toLocaleString('en')} transactions, 1,000 wallets; load average ${os.loadavg()[0].toFixed(1)}`);
      lines.push(`benchmark query (ProjectWallets, 100 wallets × 5 transactions), cost 2903: p50 ${nested.p50.toFixed(2)} ms (min ${nested.min.toFixed(2)}) → ${(msPerUnit * 1000).toFixed(2)} µs per cost unit`);
      const cases: [string, string][] = [
        ['project by id', `query($id: ID!) { project(id: $id) { id name } }`],
        ['search, no filter, first 20', search('')],
        ['search, no filter, first 100', search('', 100)],
        ['search, reference (selective)', search('{ reference: "order-00005000" }')],
        ['search, minAmount matching none (whole project scanned)', search('{ minAmount: "1000000" }')],
        [`search, walletId + minAmount matching none (the wallet's rows)`, search(`{ walletId: "${project.wallets[7].id}", minAmount: "1000000" }`)],
        ['search, metadata pair matching none', search('{ metadata: [{ key: "order", value: "none" }] }')],
        ['analytics, 30 daily buckets', analytics('day', 30)],
        ['analytics, 400 hourly buckets', analytics('hour', 400)],
      ];
      for (const [label, query] of cases) {
        const { p50, min } = await timeOf(() => raw(t, key, query, { id }));
        const cost = operationCost({ schema, document: parse(query), variables: { id } });
        lines.push(`${label.padEnd(62)} p50 ${p50.toFixed(2).padStart(7)} ms (min ${min.toFixed(2).padStart(7)}) = ${Math.round(p50 / msPerUnit).toString().padStart(6)} units; model: ${cost}`);
      }
    }
    lines.push('', `queries: ${print(parse(search('{ minAmount: "1000000" }')))}`);
    console.log(lines.join('\n'));
  }, 900_000);
});
