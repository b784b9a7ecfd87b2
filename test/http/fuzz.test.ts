import { ADMIN_TOKEN, startTestApp, type TestApp } from '../support/test-app.js';
import { expectStatus, fundedProject, type FundedProject } from '../support/fixtures.js';
import { pool } from '../system/support/http.js';
import { graphqlControlCases, graphqlFuzzCases, type GraphQLCase } from './fuzz/graphql-mutations.js';
import { graphqlQueryCases } from './fuzz/graphql-queries.js';
import { intruderGraphqlCases, intruderRestRequests, sampleOf } from './fuzz/intruder.js';
import { conservationProblems, graphqlAnswerProblem, graphqlQueryProblem, restAnswerProblem, stateSnapshot } from './fuzz/oracle.js';
import { queryRouteCases, queryRoutes } from './fuzz/rest-reads.js';
import { restControlRequests, restFuzzCases, type FuzzRequest, type FuzzTarget } from './fuzz/rest-writes.js';
import { Tally } from './fuzz/tally.js';

/**
 * Property-based fuzzing of the whole HTTP surface, REST and GraphQL, in one run against one
 * service (fast-check, a fixed seed: the same cases on every run; FUZZ_SEED=n for others). Every
 * case is certainly wrong by construction — a broken field, parameter, cursor or document, or
 * another owner's resource — so the only acceptable answer is a contract error (a GraphQL query
 * may also answer null: nothing found); any 2xx is a defect, for the other owner a tenancy leak.
 * Nothing changes meanwhile, and the service still posts and balances afterwards.
 * One file under test/http: both transports go through the same HTTP pipeline (body limit, media
 * type, JSON parsing) and share the target, the oracle and the tally.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const PER = { restWrite: 230, restRead: 160, mutation: 110, malformedDocuments: 100, query: 110, hostileDocuments: 150, intruderRest: 420, intruderGraphql: 320 };
const LANES = 16;

describe(`fuzzing every route (seed ${SEED})`, () => {
  let t: TestApp;
  let p: FundedProject;
  let intruder: FundedProject;
  let target: FuzzTarget;
  let before: unknown;
  const tally = new Tally();

  beforeAll(async () => {
    t = await startTestApp();
    p = await fundedProject(t, await t.issueKey('fuzz-owner', 'pro'), { customers: 2, systemBalance: '1000' });
    intruder = await fundedProject(t, await t.issueKey('fuzz-intruder', 'pro'), { customers: 1, systemBalance: '10' });
    // The asset gets a transfer, so renaming its symbol or deleting it is refused.
    const moved = await expectStatus(t.request('POST', '/transactions', { key: p.key, body: { amount: 10, currency: p.symbol, from: p.system.id, to: p.customers[1].id, projectId: p.projectId } }), 201);
    const holdOf = async () =>
      (await expectStatus(t.request('POST', '/holds', { key: p.key, body: { amount: 5, currency: p.symbol, from: p.system.id, to: p.customers[0].id, projectId: p.projectId } }), 201)).hold.id as string;
    const holds = { restCapture: await holdOf(), restVoid: await holdOf(), gqlCapture: await holdOf(), gqlVoid: await holdOf() };
    target = {
      holds,
      transactionId: moved.transaction.id,
      projectId: p.projectId,
      assetId: p.assetId,
      symbol: p.symbol,
      systemId: p.system.id,
      customerId: p.customers[0].id,
      known: [p.system.id, p.system.address, ...p.customers.flatMap((c) => [c.id, c.address]), intruder.system.id, intruder.system.address, ...intruder.customers.flatMap((c) => [c.id, c.address])],
    };
    before = await stateSnapshot(t.db);
  });
  afterAll(async () => {
    console.log(tally.report());
    await t.close();
  });

  const send = (c: FuzzRequest, key: string) =>
    t.request(c.method, c.path, { key, body: c.body, raw: c.raw, contentType: c.contentType, headers: c.headers }).catch((error: Error) => ({ status: 0, body: { transport: error.message } }));

  /** Sends every case, tallies its answer, and lists the answers that break the contract (with the seed to replay them). */
  async function run<C>(kind: string, cases: C[], call: (c: C) => Promise<{ status: number; body: any }>, problemOf: (c: C, status: number, body: any) => string | null, describeCase: (c: C) => string): Promise<string[]> {
    const failures: string[] = [];
    await tally.time(kind, () =>
      pool(cases.length, LANES, async (i) => {
        const res = await call(cases[i]);
        tally.count(kind, res.status);
        const problem = problemOf(cases[i], res.status, res.body);
        if (problem) failures.push(`[seed ${SEED}] ${describeCase(cases[i])} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}: ${problem}`);
      }),
    );
    return failures;
  }

  const restCase = (c: FuzzRequest) => `${c.endpoint} [${c.breaker}] ${JSON.stringify({ ...c, raw: c.raw?.slice(0, 200), body: JSON.stringify(c.body)?.slice(0, 300) }).slice(0, 600)}`;
  const gqlCase = (c: GraphQLCase) => `${c.mutation} [${c.breaker}] ${JSON.stringify(c).slice(0, 500)}`;
  const restRefused = (_: FuzzRequest, status: number, body: any) => restAnswerProblem(status, body);
  const postGraphql = (key: string) => (c: GraphQLCase) => t.request('POST', '/graphql', { key, body: { query: c.query, variables: c.variables } });

  it('answers every malformed REST write with a 4xx contract error, and moves nothing', async () => {
    const failures = await run('REST writes', restFuzzCases(target, PER.restWrite, SEED), (c) => send(c, p.key), restRefused, restCase);
    expect(failures.slice(0, 15)).toEqual([]);
    expect(await stateSnapshot(t.db)).toEqual(before);
  });

  it('answers every malformed REST read, DELETE and admin call with a 4xx contract error', async () => {
    const failures = await run('REST reads', queryRouteCases(queryRoutes(target, ADMIN_TOKEN), PER.restRead, SEED), (c) => send(c, p.key), restRefused, restCase);
    expect(failures.slice(0, 15)).toEqual([]);
    expect(await stateSnapshot(t.db)).toEqual(before);
  });

  it('answers every malformed GraphQL mutation with contract errors and no data, and moves nothing', async () => {
    const cases = graphqlFuzzCases(target, PER.mutation, PER.malformedDocuments, SEED);
    const failures = await run('GraphQL mutations', cases, postGraphql(p.key), (c, status, body) => graphqlAnswerProblem(status, body, c.mutation), gqlCase);
    expect(failures.slice(0, 15)).toEqual([]);
    expect(await stateSnapshot(t.db)).toEqual(before);
  });

  it('answers every malformed GraphQL query (bad ids, pages, cursors, documents) with contract errors or nothing found', async () => {
    const cases = graphqlQueryCases(target, PER.query, PER.hostileDocuments, SEED);
    const failures = await run('GraphQL queries', cases, postGraphql(p.key), (c, status, body) => graphqlQueryProblem(status, body, c.mutation), gqlCase);
    expect(failures.slice(0, 15)).toEqual([]);
  });

  it("refuses another owner every route and operation on the target's resources (no tenancy leak), and moves nothing", async () => {
    const rest = sampleOf(intruderRestRequests(target, queryRoutes(target, ADMIN_TOKEN), intruder.projectId), PER.intruderRest, SEED + 500);
    const restFailures = await run('other owner REST', rest, (c) => send(c, intruder.key), restRefused, restCase);
    const graphql = sampleOf(intruderGraphqlCases(target), PER.intruderGraphql, SEED + 501);
    const gqlFailures = await run('other owner GraphQL', graphql, postGraphql(intruder.key), (c, status, body) => graphqlQueryProblem(status, body, c.mutation), gqlCase);
    expect([...restFailures, ...gqlFailures].slice(0, 15)).toEqual([]);
    expect(await stateSnapshot(t.db)).toEqual(before);
    expect(tally.total()).toBeGreaterThanOrEqual(10_000);
  });

  // Last, as it changes state: each case's request without its breaker succeeds, so every
  // refusal above was caused by what the case broke, not by a wrong base request.
  it('accepts the unbroken request of every endpoint and mutation (control)', async () => {
    // Wallet status changes go last: a suspended wallet would refuse the transfers.
    const last = (name: string) => Number(/status|setWalletStatus/i.test(name));
    const graphql = graphqlControlCases(target).sort((a, b) => last(a.mutation!) - last(b.mutation!));
    const rest = restControlRequests(target).sort((a, b) => last(a.endpoint) - last(b.endpoint));
    const runGraphql = async (control: (typeof graphql)[number]) => {
      const res = await t.request('POST', '/graphql', { key: p.key, body: { query: control.query, variables: control.variables } });
      if (control.mutation === 'deleteAsset') expect(res.body.errors?.[0]?.extensions?.code).toBe('asset_in_use');
      else expect([control.mutation, res.body.errors ?? null]).toEqual([control.mutation, null]);
    };
    const runRest = async (control: FuzzRequest) => {
      const res = await send(control, p.key);
      if (control.method === 'DELETE') expect([control.endpoint, res.status, res.body.code]).toEqual([control.endpoint, 409, 'asset_in_use']);
      else expect([control.endpoint, res.status]).toEqual([control.endpoint, control.endpoint.startsWith('POST') && !control.endpoint.startsWith('POST /webhook') && !control.endpoint.endsWith('/void') ? 201 : 200]);
    };
    for (const control of graphql.filter((c) => !last(c.mutation!))) await runGraphql(control);
    for (const control of rest.filter((c) => !last(c.endpoint))) await runRest(control);
    for (const control of graphql.filter((c) => last(c.mutation!))) await runGraphql(control);
    for (const control of rest.filter((c) => last(c.endpoint))) await runRest(control);
  });

  it('still answers afterwards: a valid transfer posts and every balance is its history', async () => {
    const res = await t.request('POST', '/transactions', { key: intruder.key, body: { amount: 1.5, currency: intruder.symbol, from: intruder.system.id, to: intruder.customers[0].id, projectId: intruder.projectId } });
    expect([res.status, res.body.transaction?.balance]).toEqual([201, 8.5]);
    expect(await conservationProblems(t.db)).toEqual([]);
  });
});
