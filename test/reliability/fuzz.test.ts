import { startTestApp, type TestApp } from '../support/test-app.js';
import { fundedProject, type FundedProject } from '../support/fixtures.js';
import { restControlRequests, restFuzzCases, type FuzzRequest, type FuzzTarget } from './support/fuzz-rest.js';
import { graphqlControlCases, graphqlFuzzCases } from './support/fuzz-graphql.js';
import { graphqlAnswerProblem, restAnswerProblem, stateSnapshot } from './support/fuzz-oracle.js';
import { pool } from './support/http.js';

/**
 * Property-based fuzzing of every write endpoint with malformed and hostile input (fast-check,
 * fixed seeds: the same cases on every run). Each case is a valid request with at least one
 * certainly-wrong part, so the only acceptable answer is a 4xx contract error; afterwards no
 * money has moved and no resource has changed.
 */
const SEED = 20261121;
const REST_CASES_PER_ENDPOINT = 110;
const GRAPHQL_CASES_PER_MUTATION = 50;
const GRAPHQL_MALFORMED_DOCUMENTS = 50;

describe('fuzzing the write endpoints', () => {
  let t: TestApp;
  let p: FundedProject;
  let target: FuzzTarget;
  let before: unknown;
  let total = 0;

  beforeAll(async () => {
    t = await startTestApp();
    p = await fundedProject(t, await t.issueKey('fuzz-owner', 'pro'), { customers: 2, systemBalance: '1000' });
    // The asset gets a transfer, so renaming its symbol or deleting it is refused.
    const moved = await t.request('POST', '/transactions', { key: p.key, body: { amount: 10, currency: p.symbol, from: p.system.id, to: p.customers[1].id, projectId: p.projectId } });
    expect(moved.status).toBe(201);
    const holdOf = async () => {
      const res = await t.request('POST', '/holds', { key: p.key, body: { amount: 5, currency: p.symbol, from: p.system.id, to: p.customers[0].id, projectId: p.projectId } });
      expect(res.status).toBe(201);
      return res.body.hold.id as string;
    };
    const holds = { restCapture: await holdOf(), restVoid: await holdOf(), gqlCapture: await holdOf(), gqlVoid: await holdOf() };
    target = {
      holds,
      transactionId: moved.body.transaction.id,
      projectId: p.projectId,
      assetId: p.assetId,
      symbol: p.symbol,
      systemId: p.system.id,
      customerId: p.customers[0].id,
      known: [p.system.id, p.system.address, ...p.customers.flatMap((c) => [c.id, c.address])],
    };
    before = await stateSnapshot(t.db);
  });
  afterAll(async () => {
    console.log(`fuzz: ${total} generated cases`);
    await t.close();
  });

  const send = (c: FuzzRequest) =>
    t.request(c.method, c.path, { key: p.key, body: c.body, raw: c.raw, contentType: c.contentType === undefined ? undefined : c.contentType }).catch((error: Error) => ({
      status: 0,
      body: { transport: error.message },
      headers: new Headers(),
    }));

  it('answers every malformed REST write with a 4xx contract error, and moves nothing', async () => {
    const cases = restFuzzCases(target, REST_CASES_PER_ENDPOINT, SEED);
    total += cases.length;
    const failures: string[] = [];
    const codes = new Map<string, number>();
    await pool(cases.length, 8, async (i) => {
      const res = await send(cases[i]);
      const code = `${res.status} ${res.body?.code}`;
      codes.set(code, (codes.get(code) ?? 0) + 1);
      const problem = restAnswerProblem(res.status, res.body);
      if (problem) failures.push(`${cases[i].endpoint} [${cases[i].breaker}] → ${res.status} ${JSON.stringify(res.body)}: ${problem}\n  request: ${JSON.stringify({ ...cases[i], raw: cases[i].raw?.slice(0, 200) }).slice(0, 600)}`);
    });
    console.log(`REST fuzz answers: ${[...codes].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ×${n}`).join(', ')}`);
    expect(failures.slice(0, 15)).toEqual([]);
    expect(await stateSnapshot(t.db)).toEqual(before);
  });

  it('answers every malformed GraphQL mutation with contract errors and no data, and moves nothing', async () => {
    const cases = graphqlFuzzCases(target, GRAPHQL_CASES_PER_MUTATION, GRAPHQL_MALFORMED_DOCUMENTS, SEED);
    total += cases.length;
    const failures: string[] = [];
    const codes = new Map<string, number>();
    await pool(cases.length, 8, async (i) => {
      const c = cases[i];
      const res = await t.request('POST', '/graphql', { key: p.key, body: { query: c.query, variables: c.variables } });
      const code = `${res.status} ${res.body?.errors?.[0]?.extensions?.code}`;
      codes.set(code, (codes.get(code) ?? 0) + 1);
      const problem = graphqlAnswerProblem(res.status, res.body, c.mutation);
      if (problem) failures.push(`${c.mutation} [${c.breaker}] → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}: ${problem}\n  request: ${JSON.stringify(c).slice(0, 500)}`);
    });
    console.log(`GraphQL fuzz answers: ${[...codes].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ×${n}`).join(', ')}`);
    expect(failures.slice(0, 15)).toEqual([]);
    expect(await stateSnapshot(t.db)).toEqual(before);
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
      const res = await send(control);
      if (control.method === 'DELETE') expect([control.endpoint, res.status, res.body.code]).toEqual([control.endpoint, 409, 'asset_in_use']);
      else expect([control.endpoint, res.status]).toEqual([control.endpoint, control.endpoint.startsWith('POST') && !control.endpoint.startsWith('POST /webhook') && !control.endpoint.endsWith('/void') ? 201 : 200]);
    };
    for (const control of graphql.filter((c) => !last(c.mutation!))) await runGraphql(control);
    for (const control of rest.filter((c) => !last(c.endpoint))) await runRest(control);
    for (const control of graphql.filter((c) => last(c.mutation!))) await runGraphql(control);
    for (const control of rest.filter((c) => last(c.endpoint))) await runRest(control);
  });
});
