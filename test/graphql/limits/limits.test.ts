import { getIntrospectionQuery, parse } from 'graphql';
import { buildLedgerSchema } from '../../../src/graphql/schema.js';
import { operationCost } from '../../../src/graphql/limits/cost.js';
import { DEFAULT_LIMITS } from '../../../src/graphql/limits/limits.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { ProjectWalletsDocument } from '../generated/graphql.js';
import { raw, run } from '../support/client.js';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.issueKey('limits');
  await t.graphql(key, '{ plan { planCode } }'); // the key's first use loads its principal and call count
});
afterAll(() => t.close());

/** project → wallets → edges → node → project → … : a field chain `levels` deep ending in a scalar (cheap: one wallet a page). */
function deepQuery(levels: number): string {
  const cycle = ['project', 'wallets(first: 1)', 'edges', 'node'];
  const leaf = ['id', 'totalCount', 'cursor', 'id'];
  const fields = Array.from({ length: levels - 1 }, (_, i) => (i === 0 ? 'project(id: "1")' : cycle[i % 4]));
  return `{ ${fields.map((f) => `${f} {`).join(' ')} ${leaf[(levels - 2) % 4]} ${'}'.repeat(levels - 1)} }`;
}

const refusal = (limit: string) => ({ code: 'validation_error', details: expect.objectContaining({ limit }) });

describe('operations refused before execution (400 validation_error, no SQL)', () => {
  it('refuses an operation 20 levels deep', async () => {
    const res = await raw(t, key, deepQuery(20));
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors!.map((e) => e.extensions)).toContainEqual({ code: 'validation_error', details: { limit: 'depth', maximum: 12, actual: 20 } });
    expect(res.body.errors![0].message).toMatch(/20 levels deep; at most 12/);
    expect(res.statements).toBe(0);
  });

  it('admits 12 levels', async () => {
    const res = await raw(t, key, deepQuery(12));
    expect(res.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'not_found' }) })]); // executed: project 1 is not this owner's
  });

  it('counts fragments at the depth where they are spread', async () => {
    const query = `query { project(id: "1") { ...W } }
      fragment W on Project { wallets { edges { node { project { wallets { edges { node { project { wallets { edges { node { id } } } } } } } } } } } }`;
    const res = await raw(t, key, query);
    expect(res.body.errors![0].extensions).toEqual({ code: 'validation_error', details: { limit: 'depth', maximum: 12, actual: 13 } });
    expect(res.statements).toBe(0);
  });

  it('refuses 100 aliases', async () => {
    const fields = Array.from({ length: 100 }, (_, i) => `a${i}: plan { planCode }`).join(' ');
    const res = await raw(t, key, `{ ${fields} }`);
    expect(res.status).toBe(400);
    expect(res.body.errors![0]).toMatchObject({
      message: 'the document has 100 aliases; at most 30 are allowed',
      extensions: { code: 'validation_error', details: { limit: 'aliases', maximum: 30, actual: 100 } },
    });
    expect(res.statements).toBe(0);
  });

  it('admits 30 aliases', async () => {
    const fields = Array.from({ length: 30 }, (_, i) => `a${i}: plan { planCode }`).join(' ');
    const res = await raw(t, key, `{ ${fields} }`);
    expect(res.body.errors).toBeUndefined();
  });

  it('refuses an operation over the cost budget, with variables taken into account', async () => {
    const query = `query($first: Int!) { project(id: "1") { wallets(first: 100) { edges { node { transactions(first: $first) { edges { node { id } } } } } } } }`;
    const res = await raw(t, key, query, { first: 100 });
    expect(res.status).toBe(400);
    expect(res.body.errors![0]).toMatchObject({
      message: 'the operation costs 20302; the budget is 10000',
      extensions: { code: 'validation_error', details: { limit: 'cost', maximum: 10_000, actual: 20_302 } },
    });
    expect(res.statements).toBe(0);
    const cheaper = await raw(t, key, query, { first: 5 });
    expect(cheaper.body.errors?.[0]?.extensions.code).toBe('not_found');
  });

  it('refuses _entities whose representations push the cost over budget', async () => {
    const representations = Array.from({ length: 400 }, () => ({ __typename: 'Wallet', id: '00000000-0000-4000-8000-000000000000' }));
    const res = await raw(t, key, 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Wallet { transactions(first: 20) { edges { node { id } } } } } }', { r: representations });
    expect(res.body.errors![0].extensions).toEqual(refusal('cost'));
    expect(res.statements).toBe(0);
  });

  it('refuses a document over the token limit while parsing', async () => {
    const res = await raw(t, key, `{ ${'plan { planCode } '.repeat(1700)} }`);
    expect(res.status).toBe(400);
    expect(res.body.errors![0].message).toMatch(/more tha.? 5000 tokens/);
    expect(res.body.errors![0].extensions).toEqual({ code: 'validation_error', details: { graphql_code: 'GRAPHQL_PARSE_FAILED' } });
    expect(res.statements).toBe(0);
  });
});

describe('the cost budget', () => {
  it('admits the benchmark query (project → 100 wallets → balances + 5 transactions) with room to spare', async () => {
    const { schema } = await buildLedgerSchema();
    const cost = operationCost({ schema, document: ProjectWalletsDocument, operationName: 'ProjectWallets', variables: { id: '1', first: 100, recent: 5 } });
    expect(cost).toBe(2_903); // 1 + 100 × 29 for the wallets' page, + 1 for its totalCount
    expect(cost).toBeLessThan(DEFAULT_LIMITS.maxCost / 3);
    const res = await run(t, key, ProjectWalletsDocument, { id: '1', first: 100, recent: 5 });
    expect(res.body.errors?.[0]?.extensions.code).toBe('not_found');
  });

  const costOf = async (query: string, variables: Record<string, unknown> = {}) => operationCost({ schema: (await buildLedgerSchema()).schema, document: parse(query), variables });

  it('charges Balance.expiring by the lots it returns, 10 when first is null or absent (as the resolver reads it)', async () => {
    const expiring = (first: string) => `{ wallet(id: "w") { balances { expiring${first} { amount } } } }`;
    // wallet 1 + 10 balances × (1 + lots × 1)
    expect(await costOf(expiring('(first: null)'))).toBe(1 + 10 * (1 + 10));
    expect(await costOf(expiring(''))).toBe(1 + 10 * (1 + 10));
    expect(await costOf(expiring('(first: 3)'))).toBe(1 + 10 * (1 + 3));
    expect(await costOf(expiring('(first: 0)'))).toBe(1 + 10 * 1);
    const page = 'query($first: Int) { wallets(projectId: "1", first: 100) { edges { node { balances { expiring(first: $first) { amount } } } } } }';
    const res = await raw(t, key, page, { first: null });
    expect(res.body.errors![0].extensions).toEqual({ code: 'validation_error', details: { limit: 'cost', maximum: 10_000, actual: 1 + 100 * (1 + 1 + 10 * (1 + 10)) } });
    expect(res.statements).toBe(0);
  });

  it("charges a connection's totalCount once, whatever first is (first: 0 still runs the count)", async () => {
    const wallets = (first: number, fields: string) => `{ project(id: "1") { wallets(first: ${first}) { ${fields} } } }`;
    expect(await costOf(wallets(0, 'totalCount'))).toBe(1 + 1 + 1);
    expect(await costOf(wallets(0, 'pageInfo { hasNextPage }'))).toBe(1 + 1);
    expect(await costOf(wallets(20, 'totalCount edges { node { id } }'))).toBe(1 + 1 + 20 * 2 + 1);
    // nested: one count per wallet of the page
    expect(await costOf(`{ project(id: "1") { wallets(first: 100) { edges { node { transactions(first: 0) { totalCount } } } } } }`)).toBe(1 + 1 + 100 * (1 + 1 + (1 + 1)));
  });

  it('is not charged for introspection depth (the standard introspection query runs)', async () => {
    const res = await raw(t, key, getIntrospectionQuery());
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });
});

describe('HTTP protections', () => {
  it('refuses batched requests', async () => {
    const res = await t.request('POST', '/graphql', { key, body: [{ query: '{ plan { planCode } }' }, { query: '{ plan { planCode } }' }] });
    expect(res.status).toBe(400);
  });

  it('refuses a GET query without a preflight-forcing header (CSRF prevention)', async () => {
    const res = await t.request('GET', `/graphql?query=${encodeURIComponent('{ plan { planCode } }')}`, { key });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/CSRF/);
    const allowed = await t.request('GET', `/graphql?query=${encodeURIComponent('{ plan { planCode } }')}`, { key, headers: { 'apollo-require-preflight': 'true' } });
    expect(allowed.status).toBe(200);
    expect(allowed.body.data.plan.planCode).toBe('pro');
  });

  it('answers 401 unauthorized without an api_key', async () => {
    const res = await t.request('POST', '/graphql', { body: { query: '{ plan { planCode } }' } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ errors: [{ message: expect.any(String), extensions: { code: 'unauthorized', details: {} } }] });
  });

  it('maps a malformed operation to validation_error', async () => {
    const res = await raw(t, key, '{ plan { nope } }');
    expect(res.status).toBe(400);
    expect(res.body.errors![0].extensions).toEqual({ code: 'validation_error', details: { graphql_code: 'GRAPHQL_VALIDATION_FAILED' } });
    // the same operation with a field that exists runs: the refusal was the unknown field's
    const valid = await raw(t, key, '{ plan { planCode } }');
    expect([valid.status, valid.body.errors, valid.body.data]).toEqual([200, undefined, { plan: { planCode: 'pro' } }]);
  });
});
