import { startTestApp, type TestApp } from '../support/test-app.js';
import { fundedProject, type FundedProject } from '../support/fixtures.js';
import { restControlRequests, restFuzzCases, type FuzzRequest, type FuzzTarget } from './support/fuzz-rest.js';
import { restAnswerProblem, stateSnapshot } from './support/fuzz-oracle.js';
import { pool } from './support/http.js';

/**
 * Property-based fuzzing of every write endpoint with malformed and hostile input (fast-check,
 * fixed seeds: the same cases on every run). Each case is a valid request with at least one
 * certainly-wrong part, so the only acceptable answer is a 4xx contract error; afterwards no
 * money has moved and no resource has changed.
 */
const SEED = 20261121;
const REST_CASES_PER_ENDPOINT = 110;

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
    target = {
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

  // Last, as it changes state: each case's request without its breaker succeeds, so every
  // refusal above was caused by what the case broke, not by a wrong base request.
  it('accepts the unbroken request of every endpoint (control)', async () => {
    const controls = restControlRequests(target).sort((a, b) => Number(a.endpoint.startsWith('PUT /wallets')) - Number(b.endpoint.startsWith('PUT /wallets')));
    for (const control of controls) {
      const res = await send(control);
      if (control.method === 'DELETE') expect([control.endpoint, res.status, res.body.code]).toEqual([control.endpoint, 409, 'asset_in_use']);
      else expect([control.endpoint, res.status]).toEqual([control.endpoint, control.endpoint.startsWith('POST') && !control.endpoint.startsWith('POST /webhook') ? 201 : 200]);
    }
  });
});
