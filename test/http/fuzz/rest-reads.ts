import fc from 'fast-check';
import type { FuzzRequest, FuzzTarget } from './rest-writes.js';
import { badProjectIdSegment, badUuidSegment, hostileString, invalidValues, unknownKey, unknownReference, nulString } from './values.js';

/**
 * The REST routes that take no JSON body (reads, DELETEs, the admin key routes) as a table: each
 * route's valid query, and per query parameter and path parameter the values certainly refused.
 * A new route (part three: limits, monitors, search, export, journal, analytics) is one more row.
 */
export interface QueryRoute {
  name: string;
  method: 'GET' | 'DELETE' | 'POST';
  /** The path with a valid parameter, and its parameter breakers. */
  path: (param?: string) => string;
  badParams?: fc.Arbitrary<string>;
  /** A valid query (alone it may succeed: cases always add a breaker). */
  query: Record<string, string>;
  /** Per parameter: values certainly refused (400) or certainly matching nothing of the caller (404). */
  invalid: Record<string, fc.Arbitrary<string>>;
  headers?: Record<string, string>;
  /** A JSON body of a body-taking route here (admin key issuance). */
  body?: fc.Arbitrary<unknown>;
}

/** Not a plain integer in [min, max] as a query string carries it. */
const badInt = (min: number, max: number) =>
  fc.oneof(
    fc.constantFrom('', ' ', '1.5', '1e3', '0x10', '+1', '-1', ' 1', '1 ', 'NaN', 'Infinity', '١', '1\u0000', 'null', '[]', '99999999999999999999999'),
    fc.integer({ min: -(2 ** 31), max: min - 1 }).map(String),
    fc.bigInt({ min: BigInt(max) + 1n, max: 10n ** 30n }).map(String),
    hostileString.filter((s) => !/^\d+$/.test(s)),
  );
const page = badInt(1, 2_147_483_647);
const limit = badInt(1, 100);
const projectId = fc.oneof(badInt(1, 2_147_483_647), fc.constantFrom('2147483647', '2000000000'));
const symbol = fc.oneof(invalidValues.symbol, fc.constantFrom('NOPE', 'X1', 'ZZZ'));
const asOf = fc.oneof(
  fc.constantFrom('', 'yesterday', 'now', '2020-13-01T00:00:00Z', '2020-02-30T00:00:00Z', '2999-01-01T00:00:00Z', '2000-01-01T00:00:00Z', '1', '-1', '2024-01-01T25:00:00Z', '2024-01-01T00:00:00+25:00'),
  hostileString,
  // after now: the future is refused; before the project existed: refused too
  fc.integer({ min: 1, max: 10 ** 6 }).map((days) => new Date(Date.now() + days * 86_400_000).toISOString()),
);

/** An instant certainly refused where an export or search takes one (not ISO 8601 with an offset, or not a date). */
const badInstant = fc.oneof(fc.constantFrom('', 'yesterday', '2020-13-01T00:00:00Z', '2020-02-30T00:00:00Z', '2024-01-01T25:00:00Z', '2024-01-01', '1', 'now'), hostileString);
/**
 * A search cursor no page ever answered: random text, base64 of junk, and base64 of a well-formed
 * cursor whose date or seq is out of range (CONTRACT §21 clarification: 400, never 500).
 */
const absurdCursor = fc.oneof(
  hostileString,
  fc.constantFrom('', ' ', '=', 'AAAA', '%%%', '..', 'null', '{}', '[]'),
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('base64url')),
  fc
    .tuple(fc.constantFrom('99999-01-01T00:00:00Z', '-4713-01-01T00:00:00Z', '0000-00-00T00:00:00Z', '1e400', 'Infinity', ''), fc.constantFrom('1', '-1', '99999999999999999999999', 'x'))
    .chain(([date, seq]) => fc.constantFrom(`${date}|${seq}`, JSON.stringify({ date, seq }), JSON.stringify([date, seq]), `${date},${seq}`))
    .map((text) => Buffer.from(text).toString('base64url')),
);
const badAmount = fc.constantFrom('', 'abc', '-1', '1e3', '0x10', '1.0000000000000000001', 'NaN', 'Infinity', '١', '9'.repeat(80));

export function queryRoutes(t: FuzzTarget, adminToken: string): QueryRoute[] {
  const ref = unknownReference(t.known);
  const walletRef = fc.oneof(fc.constant(''), fc.integer({ min: 129, max: 400 }).map((n) => 'w'.repeat(n)), ref, nulString);
  const pid = String(t.projectId);
  const paging = { page: '1', limit: '20' };
  const badPaging = { page, limit };
  const uuidParam = fc.oneof(badUuidSegment, fc.uuid());
  return [
    { name: 'GET /projects', method: 'GET', path: () => '/projects', query: paging, invalid: badPaging },
    { name: 'GET /projects/{id}', method: 'GET', path: (id = pid) => `/projects/${id}`, badParams: fc.oneof(badProjectIdSegment, fc.constantFrom('2147483647')), query: {}, invalid: {} },
    { name: 'GET /assets', method: 'GET', path: () => '/assets', query: { projectId: pid, ...paging }, invalid: { projectId, ...badPaging } },
    { name: 'GET /assets/{id}', method: 'GET', path: (id = t.assetId) => `/assets/${id}`, badParams: uuidParam, query: {}, invalid: {} },
    ...(['customer', 'system'] as const).map(
      (type): QueryRoute => ({ name: `GET /wallets/${type}`, method: 'GET', path: () => `/wallets/${type}`, query: { projectId: pid, ...paging }, invalid: { projectId, ...badPaging } }),
    ),
    { name: 'GET /wallets/{id}', method: 'GET', path: (id = t.customerId) => `/wallets/${id}`, badParams: uuidParam, query: {}, invalid: { asOf } },
    { name: 'GET /wallets/{id}/lots', method: 'GET', path: (id = t.customerId) => `/wallets/${id}/lots`, badParams: uuidParam, query: { currency: t.symbol }, invalid: { currency: symbol } },
    {
      name: 'GET /transactions',
      method: 'GET',
      path: () => '/transactions',
      query: { walletId: t.customerId, projectId: pid, currency: t.symbol, ...paging },
      invalid: { walletId: walletRef, projectId, currency: symbol, reference: fc.constantFrom('', 'has space', 'r'.repeat(129), 'é', 'x\u0000'), asOf, ...badPaging },
    },
    { name: 'GET /holds/{id}', method: 'GET', path: (id = t.holds.restVoid) => `/holds/${id}`, badParams: uuidParam, query: {}, invalid: {} },
    {
      name: 'GET /holds',
      method: 'GET',
      path: () => '/holds',
      query: { projectId: pid, walletId: t.customerId, status: 'pending', ...paging },
      invalid: { projectId, walletId: walletRef, status: fc.oneof(invalidValues.status, fc.constantFrom('PENDING', 'Captured', 'void')), ...badPaging },
    },
    { name: 'GET /events', method: 'GET', path: () => '/events', query: { projectId: pid, after: '0', limit: '20' }, invalid: { projectId, after: badInt(0, 2 ** 53 - 1), limit } },
    { name: 'GET /webhook-endpoints', method: 'GET', path: () => '/webhook-endpoints', query: { projectId: pid, ...paging }, invalid: { projectId, ...badPaging } },
    { name: 'GET /webhook-endpoints/{id}/deliveries', method: 'GET', path: (id = '00000000-0000-4000-8000-000000000000') => `/webhook-endpoints/${id}/deliveries`, badParams: uuidParam, query: paging, invalid: badPaging },
    { name: 'DELETE /webhook-endpoints/{id}', method: 'DELETE', path: (id = '00000000-0000-4000-8000-000000000000') => `/webhook-endpoints/${id}`, badParams: uuidParam, query: {}, invalid: {} },
    // part three: limits, monitors, search, export, journal, analytics (CONTRACT §19–§23)
    { name: 'GET /limits', method: 'GET', path: () => '/limits', query: { projectId: pid, ...paging }, invalid: { projectId, walletId: walletRef, ...badPaging } },
    { name: 'GET /wallets/{id}/limits', method: 'GET', path: (id = t.customerId) => `/wallets/${id}/limits`, badParams: uuidParam, query: {}, invalid: {} },
    { name: 'DELETE /limits/{id}', method: 'DELETE', path: (id = '00000000-0000-4000-8000-000000000000') => `/limits/${id}`, badParams: uuidParam, query: {}, invalid: {} },
    { name: 'GET /balance-monitors', method: 'GET', path: () => '/balance-monitors', query: { projectId: pid, ...paging }, invalid: { projectId, walletId: walletRef, ...badPaging } },
    { name: 'DELETE /balance-monitors/{id}', method: 'DELETE', path: (id = '00000000-0000-4000-8000-000000000000') => `/balance-monitors/${id}`, badParams: uuidParam, query: {}, invalid: {} },
    {
      name: 'GET /transactions/search',
      method: 'GET',
      path: () => '/transactions/search',
      query: { projectId: pid, currency: t.symbol, limit: '20' },
      invalid: { projectId, currency: symbol, walletId: walletRef, minAmount: badAmount, maxAmount: badAmount, since: badInstant, until: badInstant, limit, after: absurdCursor },
    },
    {
      name: 'GET /transactions/export',
      method: 'GET',
      path: () => '/transactions/export',
      query: { projectId: pid, format: 'ndjson' },
      invalid: { projectId, since: badInstant, until: badInstant, format: fc.constantFrom('', 'json', 'CSV', 'xml', 'ndjson ') },
    },
    { name: 'GET /projects/{id}/journal', method: 'GET', path: (id = pid) => `/projects/${id}/journal`, badParams: badProjectIdSegment, query: { after: '0', limit: '20' }, invalid: { after: badInt(0, 2 ** 53 - 1), limit } },
    { name: 'GET /projects/{id}/journal/verify', method: 'GET', path: (id = pid) => `/projects/${id}/journal/verify`, badParams: badProjectIdSegment, query: {}, invalid: {} },
    {
      name: 'GET /projects/{id}/analytics',
      method: 'GET',
      path: (id = pid) => `/projects/${id}/analytics`,
      badParams: badProjectIdSegment,
      query: { currency: t.symbol, interval: 'day' },
      invalid: { currency: symbol, since: badInstant, until: badInstant, interval: fc.constantFrom('', 'week', 'DAY', 'minute', 'hour ') },
    },
    {
      name: 'GET /admin/api-keys',
      method: 'GET',
      path: () => '/admin/api-keys',
      query: { owner: 'fuzz-owner', ...paging },
      invalid: { owner: fc.oneof(fc.constant(''), fc.constant('o'.repeat(300)), nulString), ...badPaging },
      headers: { admin_token: adminToken },
    },
    { name: 'DELETE /admin/api-keys/{id}', method: 'DELETE', path: (id = '00000000-0000-4000-8000-000000000000') => `/admin/api-keys/${id}`, badParams: uuidParam, query: {}, invalid: {}, headers: { admin_token: adminToken } },
    {
      name: 'POST /admin/api-keys',
      method: 'POST',
      path: () => '/admin/api-keys',
      query: {},
      invalid: {},
      headers: { admin_token: adminToken },
      body: fc.oneof(
        fc.record({ owner: fc.constant('fuzz-admin-owner'), plan_code: fc.oneof(hostileString, fc.constantFrom('platinum', 'PRO', '', 'free ')) }),
        fc.record({ owner: fc.oneof(fc.constant(''), fc.constant('o'.repeat(300)), nulString, fc.integer()), plan_code: fc.constant('pro') }),
        fc.record({ owner: fc.constant('fuzz-admin-owner'), plan_code: fc.constant('pro'), extra: fc.jsonValue({ maxDepth: 1 }) }),
      ),
    },
  ];
}

/** A path segment as sent: percent-encoded UTF-8, a lone surrogate as the bytes of its (invalid) UTF-8 form. */
const pathSegment = (text: string): string => Array.from(text, (char) => (/^[\ud800-\udfff]$/.test(char) ? '%ED%A0%80' : encodeURIComponent(char))).join('');

const withQuery = (path: string, query: [string, string][]): string => (query.length ? `${path}?${new URLSearchParams(query).toString()}` : path);

/** Every case of one route: its valid request with at least one certainly-wrong part. */
function casesOf(route: QueryRoute): fc.Arbitrary<FuzzRequest> | null {
  const request = (breaker: string, path: string, body?: unknown): FuzzRequest => ({ endpoint: route.name, breaker, method: route.method, path, headers: route.headers, body });
  const valid = Object.entries(route.query);
  const arbs: fc.Arbitrary<FuzzRequest>[] = [];
  if (route.body) arbs.push(route.body.map((body) => request('body', route.path(), body)));
  if (route.badParams) arbs.push(route.badParams.map((param) => request('path parameter', withQuery(route.path(pathSegment(param)), valid))));
  // only routes with a query schema (strict) refuse unknown parameters; the others ignore the query
  if (valid.length || Object.keys(route.invalid).length) {
    arbs.push(
      fc.tuple(unknownKey(Object.keys(route.query).concat(Object.keys(route.invalid))), fc.string({ maxLength: 20 })).map(([key, value]) => request('unknown parameter', withQuery(route.path(), [...valid, [key, value]]))),
    );
  }
  // a parameter given twice, with the same or another value (CONTRACT §24 clarification: 400 on every route)
  if (valid.length) {
    arbs.push(
      fc.tuple(fc.constantFrom(...valid), fc.boolean(), fc.string({ maxLength: 10 })).map(([[key, value], same, other]) =>
        request('repeated parameter', withQuery(route.path(), [...valid, [key, same ? value : other]])),
      ),
    );
  }
  for (const [name, invalid] of Object.entries(route.invalid)) {
    const others = valid.filter(([key]) => key !== name);
    arbs.push(invalid.map((value) => request(`${name}: invalid`, withQuery(route.path(), [...others, [name, value]]))));
  }
  return arbs.length ? fc.oneof(...arbs) : null;
}

/** `perRoute` cases for each route that has something to break (fixed seed). */
export function queryRouteCases(routes: QueryRoute[], perRoute: number, seed: number): FuzzRequest[] {
  return routes.flatMap((route, i) => {
    const cases = casesOf(route);
    return cases ? fc.sample(cases, { numRuns: perRoute, seed: seed + 200 + i }) : [];
  });
}
