import { getNamedType, isObjectType, parse } from 'graphql';
import pg from 'pg';
import { operationCost } from '../../../src/graphql/limits/cost.js';
import { DEFAULT_LIMITS } from '../../../src/graphql/limits/limits.js';
import { SCAN_COST, SEARCH_COST, STATEMENT_WEIGHTS } from '../../../src/graphql/limits/statement-weights.js';
import { buildLedgerSchema } from '../../../src/graphql/schema.js';
import { CONNECTIONS_PER_REQUEST } from '../../../src/db/request-connections.js';
import { fundedProject, transfer, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { raw } from '../support/client.js';

/**
 * CONTRACT §18, "Expensive fields cost what they cost": a search or analytics field costs its
 * statement's weight in the cost budget each time it appears, aliases included, and one request
 * never holds more than 4 database connections at once, however many fields resolve in parallel.
 */
let t: TestApp;
let p: FundedProject;
beforeAll(async () => {
  t = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 500 } });
  p = await fundedProject(t, { owner: 'expensive-fields' }, { customers: 2, fund: 10 });
  await transfer(t, p, p.customers[0].id, p.customers[1].id, 1);
});
afterAll(() => t.close());

const SEARCH = (alias: string) => `${alias}: transactions(first: 5) { edges { node { id amount } } }`;
const searches = (n: number, besides = '') => `query($id: ID!) { project(id: $id) { ${besides} ${Array.from({ length: n }, (_, i) => SEARCH(`s${i}`)).join(' ')} } }`;
const ANALYTICS = (alias: string) => `${alias}: analytics(interval: "day") { totals { issued } series { start issued } }`;
const costOf = async (query: string) => operationCost({ schema: (await buildLedgerSchema()).schema, document: parse(query), variables: { id: '1' } });
/** A search's cost: its statement, plus its page of 5 edges each with a node. */
const ONE_SEARCH = SEARCH_COST + 1 + 5 * 2;

describe('the cost budget charges a search or analytics field each time it appears', () => {
  it('refuses 30 aliased searches before anything runs (validation_error, details.limit cost)', async () => {
    const res = await raw(t, p.key, searches(30), { id: String(p.projectId) });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors![0].extensions).toEqual({ code: 'validation_error', details: { limit: 'cost', maximum: DEFAULT_LIMITS.maxCost, actual: 1 + 30 * ONE_SEARCH } });
    expect(res.statements).toBe(0);
  });

  it('answers the same search once', async () => {
    const res = await raw(t, p.key, searches(1), { id: String(p.projectId) });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.project.s0.edges.map((edge: { node: { amount: string } }) => edge.node.amount)).toEqual(['1', '10', '10', '1000']);
  });

  it('admits as many searches as the budget holds (4) and refuses one more', async () => {
    expect(await costOf(searches(4))).toBe(1 + 4 * ONE_SEARCH);
    const admitted = await raw(t, p.key, searches(4), { id: String(p.projectId) });
    expect(admitted.body.errors).toBeUndefined();
    const refused = await raw(t, p.key, searches(5), { id: String(p.projectId) });
    expect(refused.body.errors![0].extensions).toEqual({ code: 'validation_error', details: { limit: 'cost', maximum: DEFAULT_LIMITS.maxCost, actual: 1 + 5 * ONE_SEARCH } });
    expect(refused.statements).toBe(0);
  });

  it('charges a search spread from fragments each time, and one inside a list each time per item', async () => {
    const spread = `query($id: ID!) { project(id: $id) { ...A ...B } } fragment A on Project { ${SEARCH('a')} } fragment B on Project { ${SEARCH('b')} }`;
    expect(await costOf(spread)).toBe(1 + 2 * ONE_SEARCH);
    // every project of a page runs its own search
    const perProject = `{ projects(first: 3) { edges { node { ${SEARCH('s')} } } } }`;
    expect(await costOf(perProject)).toBe(1 + 3 * (1 + 1 + ONE_SEARCH));
  });

  it('charges a search whose filters no index serves (amounts, currency alone) as a scan of the project', async () => {
    const search = (filter: string) => costOf(`query($id: ID!) { project(id: $id) { transactions(first: 5, filter: ${filter}) { edges { node { id } } } } }`);
    expect(await search('{ minAmount: "1" }')).toBe(1 + SCAN_COST + 11);
    expect(await search('{ currency: "PTS", maxAmount: "5" }')).toBe(1 + SCAN_COST + 11);
    expect(await search('{ minAmount: "1", walletId: "w" }')).toBe(1 + SEARCH_COST + 11);
    expect(await search('{ since: "2026-01-01T00:00:00Z", metadata: [] }')).toBe(1 + SEARCH_COST + 11);
    // in a variable alike
    const query = 'query($id: ID!, $f: TransactionFilter) { project(id: $id) { transactions(first: 5, filter: $f) { edges { node { id } } } } }';
    expect(operationCost({ schema: (await buildLedgerSchema()).schema, document: parse(query), variables: { id: '1', f: { maxAmount: '5' } } })).toBe(1 + SCAN_COST + 11);
    const twoScans = `query($id: ID!) { project(id: $id) { a: transactions(filter: { minAmount: "1" }) { edges { node { id } } } b: transactions(filter: { minAmount: "2" }) { edges { node { id } } } } }`;
    const res = await raw(t, p.key, twoScans, { id: String(p.projectId) });
    expect(res.body.errors![0].extensions).toMatchObject({ code: 'validation_error', details: { limit: 'cost' } });
    expect(res.statements).toBe(0);
  });

  it('refuses 30 aliased analytics fields before anything runs', async () => {
    const query = `query($id: ID!) { project(id: $id) { ${Array.from({ length: 30 }, (_, i) => ANALYTICS(`a${i}`)).join(' ')} } }`;
    const res = await raw(t, p.key, query, { id: String(p.projectId) });
    expect(res.body.errors![0].extensions).toMatchObject({ code: 'validation_error', details: { limit: 'cost' } });
    expect(res.statements).toBe(0);
  });

  it('charges an export-sized page by the rows its statement reads, whatever is selected of it', async () => {
    // 1 + 100 rows + the count
    expect(await costOf('query($id: ID!) { project(id: $id) { wallets(first: 100) { totalCount } } }')).toBe(1 + 1 + 100 + 1);
    expect(await costOf('query($id: ID!) { project(id: $id) { wallets(first: 100) { pageInfo { hasNextPage } } } }')).toBe(1 + 1 + 100);
  });

  it('weighs types that exist and that some field returns (a rename cannot drop the charge silently)', async () => {
    const { schema } = await buildLedgerSchema();
    const returned = new Set<string>();
    for (const type of Object.values(schema.getTypeMap())) {
      if (isObjectType(type)) for (const field of Object.values(type.getFields())) returned.add(getNamedType(field.type).name);
    }
    expect(Object.keys(STATEMENT_WEIGHTS).filter((name) => !returned.has(name))).toEqual([]);
  });
});

describe('one request holds at most 4 request connections at once', () => {
  let wide: TestApp;
  let q: FundedProject;
  beforeAll(async () => {
    // a budget that admits 12 searches: what holds the request to 4 connections is the pool, not the budget
    wide = await startTestApp({ graphqlMaxCost: 100_000, lotSweep: { intervalMs: 0, batchSize: 500 } });
    q = await fundedProject(wide, { owner: 'four-connections' }, { customers: 1, fund: 5 });
  });
  afterAll(() => wide.close());

  // a key selected twice, once under @include, runs on graphql-js's interpreter (src/graphql/conditional-merge.ts)
  it.each([
    ['graphql-jit', ''],
    ['the interpreter', 'name name @include(if: true)'],
  ])('runs 12 aliased searches 4 at a time, with the pool free for more (%s)', async (_executor, besides) => {
    const pool = wide.db.pool;
    expect(await raw(wide, q.key, searches(1, besides), { id: String(q.projectId) })).toMatchObject({ status: 200 }); // the key is known, the document compiled
    let out = 0;
    let most = 0;
    /** The request connections' backends (background work on its own pool waits for the lock too). */
    const backends = new Set<number>();
    const acquired = (client: pg.PoolClient) => {
      backends.add((client as unknown as { processID: number }).processID);
      most = Math.max(most, ++out);
    };
    const released = () => out--;
    pool.on('acquire', acquired);
    pool.on('release', released);
    const blocker = new pg.Client({ connectionString: wide.databaseUrl });
    const observer = new pg.Client({ connectionString: wide.databaseUrl });
    await Promise.all([blocker.connect(), observer.connect()]);
    try {
      // every search's statement waits for this lock: the request's connections stay out until it goes
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE transactions IN ACCESS EXCLUSIVE MODE');
      const answer = raw(wide, q.key, searches(12, besides), { id: String(q.projectId) });
      // asked outside the lock's transaction: a transaction sees one snapshot of pg_stat_activity
      const waiting = async () =>
        Number((await observer.query(`SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1::int[]) AND wait_event_type = 'Lock'`, [[...backends]])).rows[0].count);
      while ((await waiting()) < CONNECTIONS_PER_REQUEST);
      // the 4 blocked statements are all the request has out; the other 8 searches wait for one of
      // its connections, not for the pool (of 10, with room to spare)
      expect(await waiting()).toBe(CONNECTIONS_PER_REQUEST);
      expect(pool.totalCount - pool.idleCount).toBe(CONNECTIONS_PER_REQUEST);
      expect(pool.waitingCount).toBe(0);
      await blocker.query('COMMIT');
      const res = await answer;
      expect(res.body.errors).toBeUndefined();
      expect(Object.keys(res.body.data.project).filter((key) => key.startsWith('s'))).toHaveLength(12);
      expect(most).toBe(CONNECTIONS_PER_REQUEST);
    } finally {
      pool.off('acquire', acquired);
      pool.off('release', released);
      await Promise.all([blocker.end(), observer.end()]);
    }
  });
});
