import { fundedProject, UNKNOWN_UUID, type FundedProject } from '../support/fixtures.js';
import { startTestApp, type HttpResult, type TestApp } from '../support/test-app.js';
import { statementsOf } from '../support/statements.js';
import { buildSchema, parse } from 'graphql';
import { PlannedOperations } from '../../src/graphql/planned-operations.js';
import { graphQLLimits } from '../../src/graphql/limits/limits.js';
import { PreparedPlans } from '../../src/graphql/sql-plan/prepared.js';

/**
 * The short way for operations Apollo already answered with a SQL plan (src/graphql/planned-operations.ts):
 * a repeated document is answered without Apollo's pipeline, with the same status, headers and
 * body bytes; anything else — other variables that need the resolvers or a refusal, another
 * operation name, extensions, an Accept header not answered yet — goes through Apollo, as if the
 * document were new. "As Apollo answers it" is the answer to the same request whose text carries
 * a trailing comment no request sent before: a document Apollo has to parse and validate afresh
 * (a trailing comment moves no error location).
 */
let a: TestApp;
let small: TestApp;
let key: string;
let main: FundedProject;
let other: FundedProject;
let fresh = 0;

const ENTITIES = 'query E($r: [_Any!]!) { _entities(representations: $r) { ... on Wallet { id address type status } } }';
const reps = (ids: string[]) => ({ r: ids.map((id) => ({ __typename: 'Wallet', id })) });

interface Body {
  query: string;
  variables?: unknown;
  operationName?: unknown;
  extensions?: unknown;
  [other: string]: unknown;
}

function send(t: TestApp, body: Body, headers: Record<string, string> = {}): Promise<HttpResult> {
  return t.request('POST', '/graphql', { key, raw: JSON.stringify(body), headers });
}

/** The same request as a document Apollo has never seen. */
async function viaApollo(t: TestApp, body: Body, headers: Record<string, string> = {}): Promise<HttpResult> {
  const res = await send(t, { ...body, query: `${body.query}\n# fresh ${++fresh}` }, headers);
  expect(res.headers.get('x-graphql-known-operation')).toBeNull();
  return res;
}

/**
 * Status, body bytes, the statements the operation cost, and every header but the request's own
 * id, the clock, the short way's marker and the statement counts: those count the request's
 * admission too, whose key and quota caches refresh on whichever request finds them stale
 * (test/support/statements.ts).
 */
function answer(res: HttpResult): { status: number; text: string; statements: number; headers: [string, string][] } {
  const ignored = ['x-request-id', 'date', 'x-graphql-known-operation', 'x-sql-statements', 'x-sql-admission-statements'];
  const headers = [...res.headers].filter(([name]) => !ignored.includes(name));
  return { status: res.status, text: res.text, statements: statementsOf(res), headers };
}

const known = (res: HttpResult) => res.headers.get('x-graphql-known-operation') === 'yes';

/** Sends `body` until Apollo has answered it once with a plan; returns that first answer. */
async function learn(t: TestApp, body: Body, headers: Record<string, string> = {}): Promise<HttpResult> {
  const first = await send(t, body, headers);
  expect([first.status, first.headers.get('x-graphql-plan'), known(first)]).toEqual([200, 'sql', false]);
  return first;
}

beforeAll(async () => {
  a = await startTestApp();
  small = await startTestApp({ databaseUrl: a.databaseUrl, graphqlMaxCost: 50 });
  key = await a.issueKey('planned-ops', 'enterprise');
  main = await fundedProject(a, key, { customers: 12 });
  other = await fundedProject(a, { owner: 'planned-ops-other' });
});

afterAll(async () => {
  await small?.close();
  await a?.close();
});

describe('a repeated planned document', () => {
  it('is answered the short way, byte for byte as Apollo answered it the first time', async () => {
    const body = { query: `${ENTITIES} # repeated`, variables: reps(main.customers.map((c) => c.id)) };
    const first = await learn(a, body);
    const second = await send(a, body);
    const third = await send(a, body);
    expect([known(second), known(third)]).toEqual([true, true]);
    expect(answer(second)).toEqual(answer(first));
    expect(answer(third)).toEqual(answer(first));
    expect(answer(second)).toEqual(answer(await viaApollo(a, body)));
    expect(second.body.data._entities).toHaveLength(12);
  });

  it('is planned again for other variables: other ids, another owner’s wallet, malformed and upper-case ids', async () => {
    const body = { query: `${ENTITIES} # variables`, variables: reps([main.customers[0].id]) };
    await learn(a, body);
    const cases = [
      reps([main.customers[3].id, main.customers[1].id]),
      reps([other.customers[0].id, main.customers[2].id, UNKNOWN_UUID]),
      reps(['nope', main.customers[4].id.toUpperCase()]),
      reps([]),
    ];
    for (const variables of cases) {
      const res = await send(a, { ...body, variables });
      expect(answer(res)).toEqual(answer(await viaApollo(a, { ...body, variables })));
    }
    const mixed = await send(a, { ...body, variables: reps([main.customers[3].id, main.customers[1].id]) });
    expect(known(mixed)).toBe(true);
    expect(mixed.body.data._entities.map((w: { id: string }) => w.id)).toEqual([main.customers[3].id, main.customers[1].id]);
  });

  it('answers variables the plan does not take, or that do not coerce, with Apollo’s and the resolvers’ answer', async () => {
    const body = { query: `${ENTITIES} # errors`, variables: reps([main.customers[0].id]) };
    await learn(a, body);
    const cases: [variables: unknown, short: boolean][] = [
      [{ r: [{ __typename: 'Nope', id: main.customers[0].id }] }, false],
      [{ r: 'not a list' }, false],
      [{ r: [null] }, false],
      [{}, false],
      // a variable the operation does not declare is ignored, by graphql-js and the plan alike
      [{ r: [{ __typename: 'Wallet', id: main.customers[0].id }], extra: 1 }, true],
    ];
    for (const [variables, short] of cases) {
      const res = await send(a, { ...body, variables });
      expect([variables, known(res)]).toEqual([variables, short]);
      expect(answer(res)).toEqual(answer(await viaApollo(a, { ...body, variables })));
    }
  });

  it('answers a root that is not found with the resolvers’ error, the plan run once', async () => {
    const body = { query: 'query W($id: ID!) { wallet(id: $id) { id address } } # not found', variables: { id: main.customers[0].id } };
    await learn(a, body);
    expect(known(await send(a, body))).toBe(true);
    for (const id of [UNKNOWN_UUID, other.customers[0].id, 'nope']) {
      const res = await send(a, { ...body, variables: { id } });
      expect(known(res)).toBe(false);
      // the statements compared: the short way's statement is not run a second time
      expect(answer(res)).toEqual(answer(await viaApollo(a, { ...body, variables: { id } })));
      expect(res.body.errors[0].extensions.code).toEqual(id === 'nope' ? 'validation_error' : 'not_found');
    }
  });

  it('is refused over the cost budget with this request’s variables, as Apollo refuses it', async () => {
    const body = { query: `${ENTITIES} # cost`, variables: reps([main.customers[0].id]) };
    await learn(small, body);
    expect(known(await send(small, body))).toBe(true);
    const many = { ...body, variables: reps(Array.from({ length: 60 }, (_, i) => main.customers[i % 12].id)) };
    const refused = await send(small, many);
    expect([refused.status, refused.body.errors[0].extensions.details.limit]).toEqual([400, 'cost']);
    expect(answer(refused)).toEqual(answer(await viaApollo(small, many)));
  });
});

describe('what the short way leaves to Apollo', () => {
  const TWO = `query A($r: [_Any!]!) { _entities(representations: $r) { ... on Wallet { id address } } }
    query B($r: [_Any!]!) { _entities(representations: $r) { ... on Wallet { id } } }`;

  it('keeps each operation name apart: another name, none, an unknown one', async () => {
    const variables = reps([main.customers[0].id]);
    await learn(a, { query: TWO, variables, operationName: 'A' });
    expect(known(await send(a, { query: TWO, variables, operationName: 'A' }))).toBe(true);
    const b = await send(a, { query: TWO, variables, operationName: 'B' });
    expect(known(b)).toBe(false);
    expect(b.body.data._entities).toEqual([{ id: main.customers[0].id }]);
    for (const operationName of [undefined, null, '', 'C', 7]) {
      const res = await send(a, { query: TWO, variables, operationName });
      expect(known(res)).toBe(false);
      expect(answer(res)).toEqual(answer(await viaApollo(a, { query: TWO, variables, operationName })));
    }
  });

  it('sends a body with extensions (persisted queries) or any other member through Apollo', async () => {
    const body = { query: `${ENTITIES} # extensions`, variables: reps([main.customers[0].id]) };
    await learn(a, body);
    const others: Body[] = [
      { ...body, extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } },
      { ...body, extensions: {} },
      { ...body, extensions: null },
      { ...body, variables: null },
      { ...body, id: 'x' },
    ];
    for (const other of others) {
      const res = await send(a, other);
      expect(known(res)).toBe(false);
      expect(answer(res)).toEqual(answer(await viaApollo(a, other)));
    }
  });

  it('chooses the content type as Apollo chose it for each Accept header', async () => {
    const body = { query: `${ENTITIES} # accept`, variables: reps([main.customers[0].id]) };
    const first = await learn(a, body);
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const graphqlJson = { accept: 'application/graphql-response+json' };
    const apollo = await send(a, body, graphqlJson);
    expect([known(apollo), apollo.headers.get('content-type')]).toEqual([false, 'application/graphql-response+json; charset=utf-8']);
    const again = await send(a, body, graphqlJson);
    expect(known(again)).toBe(true);
    expect(answer(again)).toEqual(answer(apollo));
    for (let i = 0; i < 2; i++) {
      const refused = await send(a, body, { accept: 'text/html' });
      expect([refused.status, known(refused)]).toEqual([406, false]);
    }
  });
});

describe('what the short way remembers (CONTRACT §18: bounded in bytes, none kept for good)', () => {
  const schema = buildSchema('type Query { a: Int }');
  const operation = (i: number) => ({ query: `query Q${i} { a }\n${'#'.repeat(6_000)}`, operationName: undefined, variables: undefined });
  const answered = (i: number, accept = 'application/json') => ({ document: parse(operation(i).query), accept, contentType: 'application/json; charset=utf-8' });

  it('operations: by their bytes (key and document), the least recently used out first', () => {
    const planned = new PlannedOperations(schema, graphQLLimits(), new PreparedPlans(), { operationBytes: 32 * 1024, acceptBytes: 64 * 1024 });
    for (let i = 0; i < 2; i++) planned.remember(operation(i), answered(i));
    expect(planned.known(operation(0), 'application/json')).toBeDefined(); // Q0 used: Q1 is the least recent
    planned.remember(operation(2), answered(2)); // ≈ 12 KB each (text twice): Q1 goes
    expect([0, 1, 2].map((i) => planned.known(operation(i), 'application/json') !== undefined)).toEqual([true, false, true]);
    for (let i = 3; i < 6; i++) planned.remember(operation(i), answered(i));
    expect(planned.known(operation(0), 'application/json')).toBeUndefined();
  });

  it('Accept values: by their bytes, a new one always taken, the least recently used out first', () => {
    const planned = new PlannedOperations(schema, graphQLLimits(), new PreparedPlans(), { operationBytes: 1024 * 1024, acceptBytes: 8 * 1024 });
    const accept = (i: number) => `application/json;q=0.${i}, ${'x'.repeat(2_000)}`;
    planned.remember(operation(0), answered(0));
    for (let i = 1; i < 20; i++) planned.remember(operation(0), answered(0, accept(i)));
    expect(planned.known(operation(0), accept(19))).toBeDefined(); // a client's first values do not fill it for good
    expect(planned.known(operation(0), accept(1))).toBeUndefined();
    expect(planned.known(operation(0), undefined)).toBeUndefined(); // no Accept header: its own key
  });
});
