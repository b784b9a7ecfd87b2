import { performance } from 'node:perf_hooks';
import { expectStatus, fundedProject, type FundedProject } from '../../test/support/fixtures.js';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { ProjectWalletsDocument } from '../../test/graphql/generated/graphql.js';
import { raw, run, type GraphQLResult } from '../../test/graphql/support/client.js';

/**
 * Statements per request and p50 latency of the nested query and of _entities (issue 4's closing
 * figures). A measurement, not a test: it is not part of `npm test` (it builds 1,110 wallets):
 *
 *   npm run bench:graphql
 *
 * Page sizes are capped at 100 (as REST's `limit`); the 1,000-wallet project is read one page of
 * 100 at a time (any page costs the same), and all 1,000 wallets at once through _entities with
 * the cost budget raised (the app's graphqlMaxCost, LEDGER_GRAPHQL_MAX_COST in production) for this run only.
 */
const RUNS = 30;

let t: TestApp;
let key: string;
const projects = new Map<number, FundedProject>();

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

async function projectWith(wallets: number): Promise<FundedProject> {
  const p = await fundedProject(t, key, { name: `${wallets} wallets`, customers: 0, systemBalance: 1_000_000 });
  const created: { id: string }[] = [];
  await inBatches(Array.from({ length: wallets - 1 }, (_, i) => i), 10, async () => {
    created.push(await expectStatus(t.request('POST', '/wallets/create/customer', { key, body: { projectId: p.projectId } }), 201));
  });
  // six transfers per customer: every wallet has more history than the 5 the query reads
  await inBatches(created, 10, async (wallet) => {
    for (let n = 1; n <= 6; n += 1) {
      await expectStatus(t.request('POST', '/transactions', { key, body: { amount: n, currency: 'PTS', from: p.system.id, to: wallet.id, projectId: p.projectId } }), 201);
    }
  });
  p.customers = created.map((w) => ({ id: w.id, address: '' }));
  return p;
}

async function measure<R>(label: string, request: () => Promise<GraphQLResult<R>>, check: (res: GraphQLResult<R>) => void): Promise<string> {
  for (let i = 0; i < 5; i += 1) check(await request());
  const times: number[] = [];
  const statements = new Set<number>();
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    const res = await request();
    times.push(performance.now() - started);
    statements.add(res.statements);
    check(res);
  }
  times.sort((a, b) => a - b);
  const p50 = times[Math.floor(RUNS / 2)];
  const p90 = times[Math.floor(RUNS * 0.9)];
  return `${label.padEnd(58)} statements ${[...statements].join('/').padEnd(4)} p50 ${p50.toFixed(1).padStart(7)} ms   p90 ${p90.toFixed(1).padStart(7)} ms`;
}

describe('measurements', () => {
  beforeAll(async () => {
    t = await startTestApp({ graphqlMaxCost: 100_000 });
    key = await t.issueKey('measure', 'enterprise');
    for (const size of [10, 100, 1000]) projects.set(size, await projectWith(size));
  }, 600_000);
  afterAll(() => t?.close());

  it('prints statements and latency', async () => {
    const lines: string[] = [];
    for (const size of [10, 100, 1000]) {
      const p = projects.get(size)!;
      const first = Math.min(size, 100);
      lines.push(
        await measure(`nested, project of ${size} wallets, page of ${first}`, () => run(t, key, ProjectWalletsDocument, { id: String(p.projectId), first, recent: 5 }), (res) => {
          expect(res.body.errors).toBeUndefined();
          expect(res.body.data!.project!.wallets.edges).toHaveLength(first);
        }),
      );
    }
    const entities = (ids: string[]) =>
      raw(t, key, 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Wallet { id address balances { currency balance } transactions(first: 5) { edges { node { id amount balance date } } } } } }', {
        r: ids.map((id) => ({ __typename: 'Wallet', id })),
      });
    const big = projects.get(1000)!;
    for (const count of [100, 1000]) {
      const ids = [big.system.id, ...big.customers.map((c) => c.id)].slice(0, count);
      lines.push(
        await measure(`_entities, ${count} Wallet representations (+ balances, 5 tx)`, () => entities(ids), (res) => {
          expect(res.body.errors).toBeUndefined();
          expect(res.body.data._entities.length).toBe(count);
        }),
      );
    }
    const bare = big.customers.slice(0, 100).map((c) => ({ __typename: 'Wallet', id: c.id }));
    lines.push(
      await measure('_entities, 100 Wallet representations (id, address only)', () => raw(t, key, 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Wallet { id address } } }', { r: bare }), (res) => {
        expect(res.body.data._entities).toHaveLength(100);
      }),
    );
    process.stdout.write(`\n${lines.join('\n')}\n\n`);
  }, 600_000);
});
