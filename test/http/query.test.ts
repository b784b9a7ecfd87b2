import { z } from 'zod';
import { readQuery } from '../../src/http/query.js';
import type { Route } from '../../src/http/route.js';
import { fundedProject, type FundedProject } from '../support/fixtures.js';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * A repeated query parameter is 400 validation_error on every route, for every parameter, whether
 * its values differ or not (CONTRACT §24 and its clarifications of part three): read once, in
 * src/http/query.ts, before any route sees its query.
 */
let t: TestApp;
let e: FundedProject;
beforeAll(async () => {
  t = await startTestApp();
  e = await fundedProject(t, { owner: 'repeated-query' }, { customers: 2, fund: 10 });
});
afterAll(() => t.close());

const codeOf = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('readQuery', () => {
  it('reads one value per name', () => {
    expect(readQuery(new URLSearchParams('a=1&b=&c=x%20y'))).toEqual({ a: '1', b: '', c: 'x y' });
  });

  it('refuses a parameter named __proto__ (a catch-all schema would set its prototype with it and not see it)', () => {
    expect(codeOf(() => readQuery(new URLSearchParams('limit=5&__proto__=x')))).toMatchObject({ code: 'validation_error', details: { field: '__proto__' } });
    expect(codeOf(() => readQuery(new URLSearchParams('__pro%74o__=')))).toMatchObject({ code: 'validation_error', details: { field: '__proto__' } });
  });

  it.each([
    ['different values', 'dryRun=true&dryRun=false', 'dryRun'],
    ['the same value twice', 'limit=5&b=1&limit=5', 'limit'],
    ['an empty value and another', 'after=&after=x', 'after'],
    ['a name spelt encoded once', 'dryRun=true&dry%52un=true', 'dryRun'],
  ])('refuses a name given twice (%s) with validation_error naming it', (_name, text, field) => {
    expect(codeOf(() => readQuery(new URLSearchParams(text)))).toMatchObject({ code: 'validation_error', details: { field } });
  });
});

describe('a repeated query parameter over HTTP', () => {
  const send = (query: string) =>
    t.request('POST', `/transactions${query}`, { key: e.key, body: { amount: 1, currency: e.symbol, from: e.customers[0].id, to: e.customers[1].id, projectId: e.projectId } });
  const postings = async () => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM transactions WHERE project_id = $1`, [e.projectId]))[0].n;

  it('dryRun=true&dryRun=false (or twice the same) posts nothing: 400 validation_error', async () => {
    const before = await postings();
    for (const query of ['?dryRun=true&dryRun=false', '?dryRun=false&dryRun=true', '?dryRun=false&dryRun=false', '?dryRun=true&dryRun=true']) {
      const res = await send(query);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_error', details: { field: 'dryRun' } });
    }
    expect(await postings()).toBe(before);
    expect((await send('?dryRun=false')).status).toBe(201); // once is fine
  });

  it('comes after the body\'s media type and size, as every field does (CONTRACT §2 check order)', async () => {
    const path = '/transactions?dryRun=true&dryRun=true';
    expect((await t.request('POST', path, { key: e.key, raw: 'x', contentType: 'text/plain' })).status).toBe(415);
    expect((await t.request('POST', path, { key: e.key, raw: JSON.stringify({ pad: 'x'.repeat(200 * 1024) }) })).status).toBe(413);
    expect((await t.request('POST', path, { key: 'wrong-key', body: {} })).status).toBe(401);
  });

  it.each([
    ['a search', () => `/transactions/search?projectId=${e.projectId}&projectId=${e.projectId}`, 'projectId'],
    ['a search by metadata', () => `/transactions/search?projectId=${e.projectId}&metadata.tier=gold&metadata.tier=silver`, 'metadata.tier'],
    ['a wallet read', () => `/wallets/${e.customers[0].id}?asOf=2026-01-01T00:00:00Z&asOf=2026-01-01T00:00:00Z`, 'asOf'],
    ['a list', () => `/projects?page=1&limit=5&page=2`, 'page'],
    ['a GraphQL GET', () => `/graphql?query=${encodeURIComponent('{ __typename }')}&query=${encodeURIComponent('{ __typename }')}`, 'query'],
    ['a route that declares no parameter', () => `/user/plan?x=1&x=1`, 'x'],
  ])('%s: 400 validation_error', async (_name, path, field) => {
    const res = await t.request('GET', path(), { key: e.key });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', details: { field } });
  });
});

/** The names a route's query schema declares (a route without one: any name at all is one of its parameters here). */
function parameterNames(route: Route): string[] {
  if (!route.query) return ['anything'];
  const json = z.toJSONSchema(route.query, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> };
  const names = Object.keys(json.properties ?? {});
  return names.length ? names : ['anything'];
}

describe('every registered route, every query parameter it takes', () => {
  it('answers 400 validation_error to the parameter given twice, with the same value or two', async () => {
    const routes = t.app.routes;
    expect(routes.length).toBeGreaterThan(50);
    const answers: { route: string; name: string; status: number; code: unknown; field: unknown }[] = [];
    for (const route of routes) {
      const path = route.path.replace(/\{[^}]+\}/g, '1');
      const headers: Record<string, string> = { api_key: e.key, admin_token: ADMIN_TOKEN, ...(route.html && { accept: 'text/html' }) };
      for (const name of parameterNames(route)) {
        for (const query of [`${name}=1&${name}=1`, `${name}=1&${name}=2`]) {
          const res = await t.request(route.method, `${path}?${query}`, { headers });
          answers.push({ route: `${route.method} ${route.path}`, name, status: res.status, code: res.body?.code, field: res.body?.details?.field });
        }
      }
    }
    expect(answers.length).toBeGreaterThan(2 * routes.length);
    // the declared names were read (not only the stand-in of routes without parameters)
    expect(answers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ route: 'POST /transactions', name: 'dryRun' }),
        expect.objectContaining({ route: 'GET /transactions/search', name: 'after' }),
        expect.objectContaining({ route: 'GET /projects/{id}/analytics', name: 'until' }),
      ]),
    );
    expect(answers.filter((a) => a.status !== 400 || a.code !== 'validation_error' || a.field !== a.name)).toEqual([]);
  });
});
