import { expectStatus, fundedProject, seed, transfer, UNKNOWN_UUID, type FundedProject, type WalletRef } from '../../support/fixtures.js';
import { startTestApp, type HttpResult, type TestApp } from '../../support/test-app.js';
import { ProjectWalletsDocument } from '../generated/graphql.js';
import { run } from '../support/client.js';
import { randomQueries, type GeneratedQuery, type Pools } from '../support/sql-plan-queries.js';

/**
 * SQL plans (src/graphql/sql-plan): a read-only query of the supported subset is answered by one
 * statement in which PostgreSQL builds the JSON; anything else, or anything unusual, by the
 * resolvers. Differential: `a` has plans, `b` has none, both serve the same database, and every
 * request gets the same status and the same body, key order included, from both.
 */
let a: TestApp;
let b: TestApp;
let keyA: string;
let keyB: string;
let main: FundedProject;
let reserve: WalletRef;
let gems: FundedProject;
let other: FundedProject;
let sharedProjectId: number;
let emptyProjectId: number;
const pools: Pools = { projectIds: [], walletIds: [], walletCursors: [], transactionCursors: [] };
let offsetCursor: string;

/**
 * Stored in timestamptz(3) columns, so PostgreSQL rounds them to milliseconds on write; the
 * second value is what both paths must print.
 */
const STAMPS: [stored: string, printed: string][] = [
  ['2026-01-01 00:00:00.123999+00', '2026-01-01T00:00:00.124Z'],
  ['2026-01-01 00:00:00.000999+00', '2026-01-01T00:00:00.001Z'],
  ['2026-01-01 00:00:00.999999+00', '2026-01-01T00:00:01.000Z'],
  ['2026-01-01 00:00:00.289000+00', '2026-01-01T00:00:00.289Z'],
  ['2026-01-01 00:00:00.570001+00', '2026-01-01T00:00:00.570Z'],
  ['2026-01-01 00:00:00+00', '2026-01-01T00:00:00.000Z'],
  ['2026-01-01 00:00:00.1+00', '2026-01-01T00:00:00.100Z'],
  ['2026-02-28 23:59:59.9995+02', '2026-02-28T22:00:00.000Z'],
  ['1969-12-31 23:59:59.999999+00', '1970-01-01T00:00:00.000Z'],
  ['1969-12-31 23:59:59.5+00', '1969-12-31T23:59:59.500Z'],
];
let stampedTransactions: string[];

const post = (path: string, body: unknown, key = keyA) => expectStatus(a.request('POST', path, { key, body }), 201);
const setStatus = (wallet: WalletRef, projectId: number, status: string) =>
  expectStatus(a.request('PUT', `/wallets/status/${wallet.id}`, { key: keyA, body: { projectId, status } }), 200);

/** Sends the amount as JSON number text, so 0.009007199254740991 keeps every digit (a double would not). */
async function move(path: '/transactions' | '/transactions/seed', fields: Record<string, string | number>, amount: string): Promise<any> {
  const raw = JSON.stringify(fields).replace(/}$/, `,"amount":${amount}}`);
  return expectStatus(a.request('POST', path, { key: keyA, raw }), 201);
}

async function wallet(projectId: number, type: 'customer' | 'system', address?: string): Promise<WalletRef> {
  const created = await post(`/wallets/create/${type}`, { projectId, address });
  return { id: created.id, address: created.address };
}

/** Project 1: 106 wallets (paging matters), three currencies (2, 0 and 18 fractions), amounts beyond 2^53 minor units. */
async function seedMain(): Promise<void> {
  main = await fundedProject(a, keyA, { name: 'Main', customers: 104, systemBalance: 1_000_000 });
  await post('/assets', { name: 'Stars', symbol: 'STAR', fractions: 0, projectId: main.projectId });
  await post('/assets', { name: 'Atoms', symbol: 'ATOM', fractions: 18, projectId: main.projectId });
  reserve = await wallet(main.projectId, 'system', 'reserve:atoms');
  const [customers, system] = [main.customers, main.system.id];
  for (let i = 0; i < 2; i++) await seed(a, main, system, 9007199254740991, 'STAR');
  for (let i = 0; i < 3; i++) await move('/transactions/seed', { currency: 'ATOM', projectId: main.projectId, to: reserve.id }, '0.009007199254740991');
  const paid: string[] = [];
  for (let i = 0; i < 40; i++) paid.push((await transfer(a, main, system, customers[i].id, (100 * (i + 1) + (i % 7)) / 100)).transaction.id);
  stampedTransactions = paid.slice(0, STAMPS.length);
  for (let i = 0; i < 3; i++) await transfer(a, main, system, customers[i].id, 4503599627370496 + i, 'STAR');
  await move('/transactions', { currency: 'ATOM', projectId: main.projectId, from: reserve.id, to: customers[5].id }, '0.000000000000000001');
  await move('/transactions', { currency: 'ATOM', projectId: main.projectId, from: reserve.id, to: customers[6].id }, '0.009007199254740991');
  await transfer(a, main, customers[1].id, customers[2].id, 0.5);
  await transfer(a, main, customers[2].id, customers[3].address, 0.25);
  // a closed wallet with history: emptied first (closing needs every balance at zero)
  await transfer(a, main, system, customers[40].id, 5);
  await transfer(a, main, customers[40].id, customers[41].id, 5);
  await setStatus(customers[40], main.projectId, 'closed');
  await setStatus(customers[103], main.projectId, 'closed');
  // Holds (CONTRACT §10): a pending one, one expired without any release (held is computed), a
  // captured one; a reversal of a seed (to @mint) and a partial reversal; references and metadata.
  await post('/holds', { amount: 0.5, currency: 'PTS', from: customers[0].id, to: customers[1].id, projectId: main.projectId, reference: 'hold:pending' });
  const expiring = await post('/holds', { amount: 1.25, currency: 'PTS', from: customers[4].id, to: customers[1].id, projectId: main.projectId, expiresIn: 1 });
  const captured = await post('/holds', { amount: 2, currency: 'PTS', from: customers[5].id, to: customers[6].id, projectId: main.projectId });
  await post(`/holds/${captured.hold.id}/capture`, { projectId: main.projectId, amount: 1.5 });
  const minted = (await post('/transactions/seed', { amount: 7, currency: 'PTS', to: system, projectId: main.projectId, reference: 'seed#7', metadata: { batch: 'x' } })).transaction[0];
  await post(`/transactions/${minted.id}/reverse`, { projectId: main.projectId, amount: 2, reference: 'undo/seed#7' });
  await post(`/transactions/${paid[7]}/reverse`, { projectId: main.projectId, amount: 0.01 });
  await a.db.query(`UPDATE holds SET expires_at = now() - interval '1 second' WHERE id = $1`, [expiring.hold.id]);
  await setStatus(customers[10], main.projectId, 'suspended');
  await setStatus(customers[11], main.projectId, 'suspended');
}

/** Project 2 shares project 1's primary asset (CONTRACT §3, docs/decisions/wallet-references-and-status.md) and has one of its own. */
async function seedShared(): Promise<WalletRef[]> {
  sharedProjectId = (await post('/projects', { name: 'Shared "PTS"', asset_id: main.assetId })).id;
  await post('/assets', { name: 'Local', symbol: 'LOC', fractions: 4, projectId: sharedProjectId });
  const system = await wallet(sharedProjectId, 'system');
  const customers = [await wallet(sharedProjectId, 'customer', 'user:1'), await wallet(sharedProjectId, 'customer', 'a.b@c'), await wallet(sharedProjectId, 'customer', '-x_y')];
  await move('/transactions/seed', { currency: 'PTS', projectId: sharedProjectId, to: system.id }, '500');
  await move('/transactions/seed', { currency: 'LOC', projectId: sharedProjectId, to: system.id }, '12.3456');
  await move('/transactions', { currency: 'PTS', projectId: sharedProjectId, from: system.id, to: customers[0].id }, '12.34');
  await move('/transactions', { currency: 'LOC', projectId: sharedProjectId, from: system.address, to: customers[1].address }, '0.0001');
  return [system, ...customers];
}

/** Project 3: zero fractions, 2^53-1 minted at once; project 4: no asset at all (empty balances). */
async function seedSmall(): Promise<WalletRef[]> {
  gems = await fundedProject(a, keyA, { name: 'Gems', symbol: 'GEM', fractions: 0, customers: 3, systemBalance: 9007199254740991 });
  await transfer(a, gems, gems.system.id, gems.customers[0].id, 1);
  await transfer(a, gems, gems.system.id, gems.customers[1].id, 9007199254740000);
  // Points that expire (CONTRACT §15): an expiry transaction (to @expired, no receiving wallet) and a live lot.
  await expectStatus(a.request('PUT', `/assets/${gems.assetId}`, { key: keyA, body: { expiresAfterSeconds: 86400 } }), 200);
  await transfer(a, gems, gems.system.id, gems.customers[2].id, 5);
  await a.db.query('UPDATE lots SET expires_at = clock_timestamp()::timestamptz(3) WHERE wallet_id = $1', [gems.customers[2].id]);
  await transfer(a, gems, gems.system.id, gems.customers[2].id, 3); // posts the expiry of the 5 first
  emptyProjectId = (await post('/projects', { name: 'No currency yet' })).id;
  const empty = [await wallet(emptyProjectId, 'customer'), await wallet(emptyProjectId, 'system')];
  await setStatus(empty[1], emptyProjectId, 'suspended');
  return [gems.system, ...gems.customers, ...empty];
}

/** Timestamps with microseconds, written directly: the API only ever stores now(). */
async function stampTimes(): Promise<void> {
  for (const [i, [stored]] of STAMPS.entries()) {
    const [later] = STAMPS[(i + 3) % STAMPS.length];
    await a.db.query('UPDATE transactions SET created_at = $1 WHERE id = $2', [stored, stampedTransactions[i]]);
    await a.db.query('UPDATE wallets SET created_at = $1, updated_at = $2 WHERE id = $3', [stored, later, main.customers[i].id]);
  }
  await a.db.query('UPDATE projects SET created_at = $1, updated_at = $2 WHERE id = $3', [STAMPS[0][0], STAMPS[2][0], sharedProjectId]);
}

/** Cursors as the API hands them out (read without plans), and a cursor of another kind (offset, from projects). */
async function harvestCursors(walletsWithHistory: WalletRef[]): Promise<void> {
  for (const id of pools.projectIds) {
    let after: string | null = null;
    do {
      const page: any = (await b.graphql(keyA, 'query($id: ID!, $after: String) { wallets(projectId: $id, first: 100, after: $after) { pageInfo { hasNextPage endCursor } edges { cursor } } }', { id, after })).body.data.wallets;
      pools.walletCursors.push(...page.edges.map((e: any) => e.cursor));
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    } while (after !== null);
  }
  for (const w of walletsWithHistory) {
    const res = await b.graphql(keyA, 'query($id: ID!) { wallet(id: $id) { transactions(first: 100) { edges { cursor } } } }', { id: w.id });
    pools.transactionCursors.push(...res.body.data.wallet.transactions.edges.map((e: any) => e.cursor));
  }
  offsetCursor = (await b.graphql(keyA, '{ projects(first: 1) { pageInfo { endCursor } } }')).body.data.projects.pageInfo.endCursor;
}

beforeAll(async () => {
  a = await startTestApp();
  b = await startTestApp({ databaseUrl: a.databaseUrl, graphqlSqlPlans: false });
  keyA = await a.issueKey('sql-plan-a', 'enterprise'); // enterprise: 4 projects, room for 106 wallets in one
  keyB = await a.issueKey('sql-plan-b', 'pro');
  await seedMain();
  const shared = await seedShared();
  const small = await seedSmall();
  other = await fundedProject(a, keyB, { name: 'Other owner', customers: 1 });
  await stampTimes();
  pools.projectIds.push(...[main.projectId, sharedProjectId, gems.projectId, emptyProjectId].map(String));
  const c = main.customers;
  pools.walletIds.push(...[main.system, reserve, ...c.slice(0, 12), c[40], c[41], c[103], ...shared, ...small].map((w) => w.id));
  await harvestCursors([main.system, reserve, c[0], c[2], c[40], shared[0], gems.system]);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

interface Request {
  query: string;
  variables?: Record<string, unknown>;
  /** The caller; the first owner when absent. */
  key?: () => string;
}

interface Exchange {
  request: Request;
  a: HttpResult;
  b: HttpResult;
}

async function exchange(request: Request): Promise<Exchange> {
  const key = request.key?.() ?? keyA;
  const [fromA, fromB] = await Promise.all([a.graphql(key, request.query, request.variables), b.graphql(key, request.query, request.variables)]);
  return { request, a: fromA, b: fromB };
}

const planOf = (res: HttpResult) => res.headers.get('x-graphql-plan');
const clip = (value: unknown) => JSON.stringify(value)?.slice(0, 400);

/** Where two JSON values first differ, key order included (GraphQL answers follow the selection); null when identical. */
function firstDifference(x: any, y: any, path = '$'): string | null {
  if (x === y) return null;
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null || Array.isArray(x) !== Array.isArray(y)) return `${path}: ${clip(x)} (plan) vs ${clip(y)} (resolvers)`;
  const [xKeys, yKeys] = [Object.keys(x), Object.keys(y)];
  if (xKeys.join() !== yKeys.join()) return `${path} keys: [${xKeys}] (plan) vs [${yKeys}] (resolvers)`;
  for (const k of xKeys) {
    const found = firstDifference(x[k], y[k], `${path}.${k}`);
    if (found) return found;
  }
  return null;
}

/** Every exchange whose two answers differ, with the request that showed it. */
function differences(exchanges: Exchange[]): { query: string; variables?: Record<string, unknown>; difference: string }[] {
  return exchanges.flatMap(({ request, a: x, b: y }) => {
    const difference =
      x.status !== y.status
        ? `status ${x.status} (plan) vs ${y.status} (resolvers): ${clip(x.body)} vs ${clip(y.body)}`
        : (firstDifference(x.body, y.body) ?? (x.text === y.text ? null : `same JSON, other bytes: ${x.text.slice(0, 200)} (plan) vs ${y.text.slice(0, 200)} (resolvers)`));
    return difference ? [{ query: request.query, variables: request.variables, difference }] : [];
  });
}

describe('150 random queries of the supported subset (seeded, the same every run)', () => {
  let queries: GeneratedQuery[];
  let exchanges: Exchange[];

  beforeAll(async () => {
    queries = randomQueries(20261121, 150, pools);
    exchanges = [];
    for (const query of queries) exchanges.push(await exchange(query));
  });

  it('are valid: the resolvers answer each of them with data and no error', () => {
    const refused = exchanges.filter((e) => e.b.status !== 200 || e.b.body.errors !== undefined).map((e) => ({ query: e.request.query, variables: e.request.variables, answer: clip(e.b.body) }));
    expect(refused).toEqual([]);
  });

  it('use every construct of the subset, and page through lists longer than a page', () => {
    const using = (pattern: RegExp) => queries.filter((q) => pattern.test(q.query)).length;
    const constructs = {
      fragments: using(/^fragment /m),
      inlineFragments: using(/\.\.\.(?: on \w+)?(?: @\w+\(if: [^)]*\))? \{/),
      directives: using(/@(?:skip|include)\(if: \$/) + using(/@(?:skip|include)\(if: (?:true|false)\)/),
      aliases: using(/\b\w+: (?:id|name|wallets|edges|node|balances|transactions|totalCount|pageInfo|cursor|amount|__typename)\b/),
      variables: queries.filter((q) => Object.keys(q.variables).length > 0).length,
      cursors: using(/after: (?:"|\$)/),
      walletType: using(/type: (?:CUSTOMER|SYSTEM|\$)/),
      transactions: using(/transactions\(/),
      balances: using(/balances/),
      severalRoots: queries.filter((q) => (q.query.match(/^ {2}\S/gm) ?? []).length > 1).length,
      answersWithANextPage: exchanges.filter((e) => JSON.stringify(e.b.body).includes('"hasNextPage":true')).length,
    };
    expect(Object.entries(constructs).filter(([, count]) => count < 10)).toEqual([]);
  });

  it('get the same status and the same body, byte for byte, with and without plans', () => {
    expect(differences(exchanges)).toEqual([]);
  });

  it('are each answered by a plan (x-graphql-plan: sql); without plans, never', () => {
    const unplanned = exchanges.filter((e) => planOf(e.a) !== 'sql').map((e) => e.request.query);
    expect({ unplanned: unplanned.length, examples: unplanned.slice(0, 3) }).toEqual({ unplanned: 0, examples: [] });
    expect(exchanges.filter((e) => planOf(e.b) !== null)).toHaveLength(0);
  });
});

describe('expiry transactions (to @expired)', () => {
  it('are answered by a plan exactly as by the resolvers', async () => {
    const history = await exchange({
      query: 'query($id: ID!) { wallet(id: $id) { transactions(first: 10) { totalCount edges { node { id from to amount balance date } } } } }',
      variables: { id: gems.customers[2].id },
    });
    expect(differences([history])).toEqual([]);
    expect(planOf(history.a)).toBe('sql');
    expect(history.b.body.data.wallet.transactions.edges.map((e: any) => [e.node.to, e.node.amount, e.node.balance])).toEqual([
      [gems.customers[2].address, '3', '3'],
      ['@expired', '5', '0'],
      [gems.customers[2].address, '5', '5'],
    ]);
  });
});

describe('timestamps with sub-millisecond digits', () => {
  it('print as the resolvers print them: ISO 8601, milliseconds, Z', async () => {
    const walletTimes = await exchange({
      query: 'query($id: ID!) { project(id: $id) { createdAt wallets(type: CUSTOMER, first: 10) { edges { node { createdAt updatedAt } } } } }',
      variables: { id: String(main.projectId) },
    });
    const history = await exchange({ query: 'query($id: ID!) { wallet(id: $id) { transactions(first: 100) { edges { node { id date } } } } }', variables: { id: main.system.id } });
    expect(differences([walletTimes, history])).toEqual([]);
    expect([planOf(walletTimes.a), planOf(history.a)]).toEqual(['sql', 'sql']);

    const printed = STAMPS.map(([, iso]) => iso);
    const later = STAMPS.map((_, i) => STAMPS[(i + 3) % STAMPS.length][1]);
    const wallets = walletTimes.b.body.data.project.wallets.edges.map((e: any) => e.node);
    expect(wallets.map((w: any) => w.createdAt)).toEqual(printed);
    expect(wallets.map((w: any) => w.updatedAt)).toEqual(later);
    const dates = new Map(history.b.body.data.wallet.transactions.edges.map((e: any) => [e.node.id, e.node.date]));
    expect(stampedTransactions.map((id) => dates.get(id))).toEqual(printed);
  });
});

type Case = [title: string, request: () => Request, answer: 'data' | 'errors'];

const project = () => String(main.projectId);
const walletId = () => main.customers[0].id;

/** The same answer both ways, without the plan header; `answer` pins what the resolvers answer, so each case tests what its title says. */
async function expectFallback(request: Request, answer: 'data' | 'errors'): Promise<void> {
  const res = await exchange(request);
  expect(differences([res])).toEqual([]);
  expect([planOf(res.a), planOf(res.b)]).toEqual([null, null]);
  if (answer === 'errors') expect(res.b.body.errors?.length).toBeGreaterThan(0);
  else expect({ errors: res.b.body.errors, data: res.b.body.data !== undefined }).toEqual({ errors: undefined, data: true });
}

describe('falls back to the resolvers', () => {
  const cases: Case[] = [
    ['Project.exchangeRate', () => ({ query: 'query($id: ID!) { project(id: $id) { id name exchangeRate } }', variables: { id: project() } }), 'data'],
    ['Project.metadata', () => ({ query: 'query($id: ID!) { project(id: $id) { metadata id } }', variables: { id: project() } }), 'data'],
    ['Project.asset', () => ({ query: 'query($id: ID!) { project(id: $id) { id asset { id symbol fractions } } }', variables: { id: project() } }), 'data'],
    ['Project.assets', () => ({ query: 'query($id: ID!) { project(id: $id) { assets(first: 2) { totalCount edges { node { symbol } } } } }', variables: { id: project() } }), 'data'],
    ['Wallet.project', () => ({ query: 'query($id: ID!) { wallet(id: $id) { id project { id name } } }', variables: { id: walletId() } }), 'data'],
    ['Transaction.metadata inside Wallet.transactions', () => ({ query: 'query($id: ID!) { wallet(id: $id) { transactions(first: 5) { edges { node { id reference metadata } } } } }', variables: { id: main.system.id } }), 'data'],
    ['Transaction.toWallet inside Wallet.transactions', () => ({ query: 'query($id: ID!) { wallet(id: $id) { transactions(first: 3) { edges { node { id toWallet { id } } } } } }', variables: { id: walletId() } }), 'data'],
    ['Transaction.toWallet of an expiry (null)', () => ({ query: 'query($id: ID!) { wallet(id: $id) { transactions(first: 3) { edges { node { to toWallet { id } } } } } }', variables: { id: gems.customers[2].id } }), 'data'],
    ['Balance.expiring', () => ({ query: 'query($id: ID!) { wallet(id: $id) { balances { balance expiring { amount remaining expiresAt createdAt } } } }', variables: { id: gems.customers[2].id } }), 'data'],
    ['Balance.expiring(first: 101)', () => ({ query: 'query($id: ID!) { wallet(id: $id) { balances { expiring(first: 101) { amount } } } }', variables: { id: gems.customers[2].id } }), 'errors'],
    [
      'an unsupported field deep inside a supported query',
      () => ({ query: 'query($id: ID!) { project(id: $id) { id wallets(first: 30) { totalCount edges { cursor node { id balances { balance } project { id } } } } } }', variables: { id: project() } }),
      'data',
    ],
    ['an unsupported root field beside a supported one', () => ({ query: `{ project(id: "${project()}") { id } plan { planCode } }` }), 'data'],
    ['introspection beside a supported field', () => ({ query: `{ __schema { queryType { name } } wallet(id: "${walletId()}") { id } }` }), 'data'],
    ['a mutation', () => ({ query: `mutation { renameProject(id: "${other.projectId}", name: "Other owner") { id name } }`, key: () => keyB }), 'data'],
    ['_entities of a Project', () => ({ query: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Project { id name } } }', variables: { r: [{ __typename: 'Project', id: project() }] } }), 'data'],
    [
      '_entities of Wallets and a Project together',
      () => ({ query: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Wallet { id } ... on Project { id } } }', variables: { r: [{ __typename: 'Wallet', id: walletId() }, { __typename: 'Project', id: project() }] } }),
      'data',
    ],
    ['_entities of a Wallet by an upper-case id', () => ({ query: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Wallet { id } } }', variables: { r: [{ __typename: 'Wallet', id: walletId().toUpperCase() }] } }), 'data'],
    ['_entities of a Wallet by a malformed id', () => ({ query: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Wallet { id } } }', variables: { r: [{ __typename: 'Wallet', id: 'nope' }] } }), 'data'],
    ['_entities of an unknown type', () => ({ query: 'query($r: [_Any!]!) { _entities(representations: $r) { __typename } }', variables: { r: [{ __typename: 'Nope', id: walletId() }] } }), 'errors'],
    ['_service', () => ({ query: '{ _service { sdl } }' }), 'data'],
    ["another owner's project", () => ({ query: 'query($id: ID!) { project(id: $id) { id name } }', variables: { id: String(other.projectId) } }), 'errors'],
    ['a missing project', () => ({ query: '{ project(id: "2147483647") { id wallets { totalCount } } }' }), 'errors'],
    ['a project id that is not a number ("abc")', () => ({ query: '{ project(id: "abc") { id } }' }), 'errors'],
    ['a negative project id ("-1")', () => ({ query: 'query($id: ID!) { project(id: $id) { id } }', variables: { id: '-1' } }), 'errors'],
    ['project id 0', () => ({ query: '{ project(id: "0") { id } }' }), 'errors'],
    ['a project id beyond integer range', () => ({ query: '{ project(id: "2147483648") { id } }' }), 'errors'],
    ['a missing wallet', () => ({ query: `{ wallet(id: "${UNKNOWN_UUID}") { id balances { balance } } }` }), 'errors'],
    ['a wallet id that is not a UUID', () => ({ query: '{ wallet(id: "not-a-uuid") { id } }' }), 'errors'],
    ['wallets of a missing project', () => ({ query: '{ wallets(projectId: "2147483647") { totalCount } }' }), 'errors'],
    ["wallets of another owner's project", () => ({ query: `{ wallets(projectId: "${other.projectId}") { totalCount } }` }), 'errors'],
    ['first: -1 (root wallets)', () => ({ query: `{ wallets(projectId: "${project()}", first: -1) { totalCount } }` }), 'errors'],
    ['first: 101 (Project.wallets)', () => ({ query: `{ project(id: "${project()}") { id wallets(first: 101) { edges { node { id } } } } }` }), 'errors'],
    ['first: -1 (Wallet.transactions)', () => ({ query: `{ wallet(id: "${walletId()}") { id transactions(first: -1) { totalCount } } }` }), 'errors'],
    ['first: 101 through a variable (Wallet.transactions)', () => ({ query: 'query($id: ID!, $f: Int!) { wallet(id: $id) { transactions(first: $f) { totalCount } } }', variables: { id: walletId(), f: 101 } }), 'errors'],
    ['after: "zzz" (Project.wallets)', () => ({ query: `{ project(id: "${project()}") { wallets(after: "zzz") { totalCount } } }` }), 'errors'],
    ['after: "zzz" through a variable (root wallets)', () => ({ query: 'query($id: ID!, $c: String) { wallets(projectId: $id, after: $c) { totalCount } }', variables: { id: project(), c: 'zzz' } }), 'errors'],
    ['an after cursor of another kind (Wallet.transactions)', () => ({ query: `{ wallet(id: "${main.system.id}") { transactions(first: 2, after: "${offsetCursor}") { totalCount } } }` }), 'errors'],
    ['an after cursor of another kind (root wallets)', () => ({ query: `{ wallets(projectId: "${project()}", first: 2, after: "${offsetCursor}") { totalCount } }` }), 'errors'],
    ['a type variable that does not coerce', () => ({ query: 'query($id: ID!, $t: WalletType) { wallets(projectId: $id, type: $t) { totalCount } }', variables: { id: project(), t: 'NOPE' } }), 'errors'],
    ['an ID variable that does not coerce', () => ({ query: 'query($id: ID!) { project(id: $id) { id } }', variables: { id: { id: 1 } } }), 'errors'],
    ['first: null through a nullable variable', () => ({ query: 'query($id: ID!, $f: Int) { wallets(projectId: $id, first: $f) { totalCount } }', variables: { id: project(), f: null } }), 'errors'],
    ['a supported and a failing root field together', () => ({ query: `{ ok: project(id: "${project()}") { id name } bad: project(id: "abc") { id } }` }), 'errors'],
    ['a missing wallet beside a supported root field', () => ({ query: `{ w: wallet(id: "${UNKNOWN_UUID}") { id } wallets(projectId: "${project()}", first: 2) { totalCount } }` }), 'errors'],
    ['a subscription', () => ({ query: `subscription { project(id: "${project()}") { id } }` }), 'errors'],
    // reads as of a time (CONTRACT §14): the resolvers refuse an instant per wallet, so they answer them all
    ['Wallet.balances(asOf:)', () => ({ query: 'query($id: ID!, $at: DateTime) { wallet(id: $id) { id balances(asOf: $at) { currency balance } } }', variables: { id: walletId(), at: new Date().toISOString() } }), 'data'],
    [
      'Wallet.transactions(asOf:) with its total and pages',
      () => ({ query: `{ wallet(id: "${walletId()}") { transactions(first: 3, asOf: "2026-06-01T00:00:00+02:00") { totalCount pageInfo { hasNextPage endCursor } edges { node { id balance date } } } } }` }),
      'data',
    ],
    [
      'Project.wallets → balances(asOf:) beside planned fields',
      () => ({ query: 'query($id: ID!, $at: DateTime) { project(id: $id) { id wallets(first: 30) { totalCount edges { node { id balances { balance } then: balances(asOf: $at) { balance } } } } } }', variables: { id: project(), at: new Date().toISOString() } }),
      'data',
    ],
    ['asOf before the wallet existed', () => ({ query: `{ wallet(id: "${walletId()}") { id balances(asOf: "1970-01-01T00:00:00Z") { balance } } }` }), 'errors'],
    ['asOf in the future', () => ({ query: 'query($id: ID!, $at: DateTime) { wallet(id: $id) { transactions(asOf: $at) { totalCount } } }', variables: { id: walletId(), at: '2999-01-01T00:00:00Z' } }), 'errors'],
    ['asOf without an offset', () => ({ query: `{ wallet(id: "${walletId()}") { balances(asOf: "2026-01-01T00:00:00") { balance } } }` }), 'errors'],
  ];

  it.each(cases)('%s', async (_title, request, answer) => {
    await expectFallback(request(), answer);
  });
});

describe('_entities of Wallets (federation), by a plan', () => {
  const entities = `query($r: [_Any!]!) {
    _entities(representations: $r) {
      __typename
      ... on Wallet { id address type status balances { currency balance } ...Recent }
    }
  }
  fragment Recent on Wallet { latest: transactions(first: 3) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id amount currency from to date balance } } } }`;

  it("answers each representation in order: the wallet, or null when missing or another owner's (repeats included)", async () => {
    const found = pools.walletIds.slice(0, 40);
    const r = [...found, UNKNOWN_UUID, other.system.id, found[0]].map((id) => ({ __typename: 'Wallet', id }));
    const res = await exchange({ query: entities, variables: { r } });
    expect(differences([res])).toEqual([]);
    expect([planOf(res.a), planOf(res.b)]).toEqual(['sql', null]);
    const answered = res.b.body.data._entities;
    expect(answered.map((w: { id: string } | null) => w?.id ?? null)).toEqual([...found, null, null, found[0]]);
    expect(found.length).toBeGreaterThanOrEqual(20);
    expect(answered.filter((w: { latest?: unknown } | null) => w?.latest)).toHaveLength(found.length + 1);
  });

  it('answers an empty list', async () => {
    const res = await exchange({ query: entities, variables: { r: [] } });
    expect(differences([res])).toEqual([]);
    expect([planOf(res.a), res.b.body.data]).toEqual(['sql', { _entities: [] }]);
  });
});

describe("tenancy: the second owner's key", () => {
  const asB = (query: string, variables?: Record<string, unknown>): Request => ({ query, variables, key: () => keyB });
  const cases: Case[] = [
    ["on the first owner's project", () => asB('query($id: ID!) { project(id: $id) { id name wallets { totalCount } } }', { id: project() }), 'errors'],
    ["on the first owner's wallet", () => asB('query($id: ID!) { wallet(id: $id) { id balances { balance } } }', { id: walletId() }), 'errors'],
    ["on the first owner's project's wallets", () => asB('query($id: ID!) { wallets(projectId: $id, first: 5) { totalCount edges { node { id } } } }', { id: project() }), 'errors'],
    ["on its own project beside the first owner's wallet", () => asB(`{ project(id: "${other.projectId}") { id name } wallet(id: "${walletId()}") { id } }`), 'errors'],
  ];

  it.each(cases)('%s: the same error both ways, by the resolvers', async (_title, request, answer) => {
    await expectFallback(request(), answer);
  });

  it('on its own project: the same answer, by a plan', async () => {
    const res = await exchange(asB('query($id: ID!) { project(id: $id) { id owner wallets { totalCount edges { node { id type balances { currency balance } } } } } }', { id: String(other.projectId) }));
    expect(differences([res])).toEqual([]);
    expect(res.b.body.data.project.wallets.totalCount).toBe(2);
    expect([planOf(res.a), planOf(res.b)]).toEqual(['sql', null]);
  });
});

describe('asOf: null (the present)', () => {
  it('is planned, with the answer of the resolvers', async () => {
    const res = await exchange({
      query: 'query($id: ID!, $at: DateTime) { wallet(id: $id) { balances(asOf: $at) { currency balance } transactions(first: 5, asOf: $at) { totalCount edges { node { id balance } } } } }',
      variables: { id: main.system.id, at: null },
    });
    expect(differences([res])).toEqual([]);
    expect(res.b.body.data.wallet.transactions.totalCount).toBeGreaterThan(5);
    expect([planOf(res.a), planOf(res.b)]).toEqual(['sql', null]);
  });
});

describe('ids in other spellings (a plan may answer or leave them to the resolvers)', () => {
  const cases: [string, () => Request][] = [
    ['a project id sent as a number', () => ({ query: 'query($id: ID!) { project(id: $id) { id name } }', variables: { id: main.projectId } })],
    ['a project id as an integer literal', () => ({ query: `{ project(id: ${main.projectId}) { id wallets(first: 1) { totalCount } } }` })],
    ['a project id with leading zeros', () => ({ query: `{ wallets(projectId: "00${main.projectId}", first: 2) { totalCount edges { node { projectId } } } }` })],
    ['a wallet id in upper case', () => ({ query: 'query($id: ID!) { wallet(id: $id) { id address } }', variables: { id: walletId().toUpperCase() } })],
  ];

  it.each(cases)('%s: the same answer both ways', async (_title, request) => {
    const res = await exchange(request());
    expect(differences([res])).toEqual([]);
    expect(res.b.body.errors).toBeUndefined();
    expect(planOf(res.b)).toBeNull();
  });
});

describe('statements', () => {
  it('project → 100 wallets → balances + 5 transactions each: one statement with a plan', async () => {
    const variables = { id: project(), first: 100, recent: 5 };
    const planned = await run(a, keyA, ProjectWalletsDocument, variables);
    const resolved = await run(b, keyA, ProjectWalletsDocument, variables);
    expect(planned.body.data?.project?.wallets.edges).toHaveLength(100);
    expect(planned.text).toBe(resolved.text);
    expect(planOf(planned)).toBe('sql');
    expect(planned.statements).toBe(1);
  });
});
