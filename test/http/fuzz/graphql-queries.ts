import fc from 'fast-check';
import type { GraphQLCase } from './graphql-mutations.js';
import type { FuzzTarget } from './rest-writes.js';
import { hostileString, invalidValues, unknownKey, unstorableString } from './values.js';

/**
 * The GraphQL queries as a table: each root's document, valid variables, and per variable the
 * values certainly refused (an error with a contract code) or certainly matching nothing of the
 * caller (null, or an error). A new query is one more row.
 */
interface QuerySpec {
  root: string;
  signature: string;
  call: string;
  base: Record<string, unknown>;
  invalid: Record<string, fc.Arbitrary<unknown>>;
}

const cursorText = (cursor: string): string => Buffer.from(cursor, 'base64url').toString('utf8');
const encode = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

/** Cursors that are not one of `kind` (as the server decodes them: base64url of `<kind>:<digits>`). */
function badCursor(kind: 'seq' | 'offset'): fc.Arbitrary<string> {
  const other = kind === 'seq' ? 'offset' : 'seq';
  return fc
    .oneof(
      fc.constantFrom(`${other}:1`, `${kind}:`, `${kind}:-1`, `${kind}:1.5`, `${kind}:abc`, `${kind}:${'9'.repeat(19)}`, `${kind}:1\u0000`, `${kind}: 1`, 'seq', '').map(encode),
      fc.string({ maxLength: 30 }).map(encode),
      hostileString,
      fc.string({ maxLength: 40 }),
    )
    .filter((cursor) => !new RegExp(`^${kind}:\\d{1,18}$`).test(cursorText(cursor)));
}

/** `first` outside 0–100 (a GraphQL Int: 32 bits). */
const badFirst = fc.oneof(fc.integer({ min: -(2 ** 31), max: -1 }), fc.integer({ min: 101, max: 2 ** 31 - 1 }));
const badProjectId = fc.oneof(fc.constantFrom('0', '-1', 'abc', '1.5', '2147483648', '99999999999999999', '', ' 1', '1e3', '0x10', '2147483647'), hostileString.filter((s) => !/^\d+$/.test(s)));
const badId = fc.oneof(invalidValues.uuid, fc.uuid());
const badSymbol = fc.oneof(invalidValues.symbol, fc.constantFrom('NOPE', 'ZZZ'));
const badInstant = fc.oneof(fc.constantFrom('2999-01-01T00:00:00Z', '2000-01-01T00:00:00Z', 'yesterday', '2020-13-01T00:00:00Z', ''), hostileString);

function queries(t: FuzzTarget): QuerySpec[] {
  const pid = String(t.projectId);
  const page = { first: 2, after: null };
  const badPage = { first: badFirst, after: badCursor('seq') };
  const badOffsetPage = { first: badFirst, after: badCursor('offset') };
  return [
    { root: 'project', signature: '$id: ID!', call: 'project(id: $id) { id name }', base: { id: pid }, invalid: { id: badProjectId } },
    { root: 'projects', signature: '$first: Int!, $after: String', call: 'projects(first: $first, after: $after) { totalCount edges { cursor } }', base: page, invalid: badOffsetPage },
    { root: 'asset', signature: '$id: ID!', call: 'asset(id: $id) { id symbol }', base: { id: t.assetId }, invalid: { id: badId } },
    {
      root: 'assets',
      signature: '$p: ID, $first: Int!, $after: String',
      call: 'assets(projectId: $p, first: $first, after: $after) { totalCount edges { node { id } } }',
      base: { p: pid, ...page },
      invalid: { p: badProjectId, ...badOffsetPage },
    },
    {
      root: 'wallet',
      signature: '$id: ID!, $first: Int!, $after: String, $asOf: DateTime',
      call: 'wallet(id: $id) { id balances { balance } transactions(first: $first, after: $after, asOf: $asOf) { totalCount edges { node { id amount } } } }',
      base: { id: t.customerId, ...page, asOf: null },
      invalid: { id: badId, asOf: badInstant, ...badPage },
    },
    {
      root: 'wallet',
      signature: '$id: ID!, $n: Int',
      call: 'wallet(id: $id) { balances { expiring(first: $n) { amount } } }',
      base: { id: t.customerId, n: 2 },
      invalid: { n: badFirst },
    },
    {
      root: 'wallets',
      signature: '$p: ID!, $first: Int!, $after: String',
      call: 'wallets(projectId: $p, first: $first, after: $after) { totalCount edges { node { id } } }',
      base: { p: pid, ...page },
      invalid: { p: badProjectId, ...badPage },
    },
    {
      root: 'transactions',
      signature: '$w: String!, $p: ID, $c: String, $r: String, $first: Int!, $after: String, $asOf: DateTime',
      call: 'transactions(walletId: $w, projectId: $p, currency: $c, reference: $r, first: $first, after: $after, asOf: $asOf) { balance { balance } totalCount edges { node { id } } }',
      base: { w: t.customerId, p: pid, c: t.symbol, r: null, ...page, asOf: null },
      invalid: {
        w: fc.oneof(fc.constant(''), fc.constant('w'.repeat(200)), unstorableString, fc.uuid()),
        p: badProjectId,
        c: badSymbol,
        r: fc.constantFrom('', 'has space', 'r'.repeat(129), 'x\u0000'),
        asOf: badInstant,
        ...badPage,
      },
    },
    { root: 'hold', signature: '$id: ID!', call: 'hold(id: $id) { id status }', base: { id: t.holds.restVoid }, invalid: { id: badId } },
    {
      root: 'holds',
      signature: '$p: ID!, $w: String, $first: Int!, $after: String',
      call: 'holds(projectId: $p, walletId: $w, first: $first, after: $after) { totalCount edges { node { id } } }',
      base: { p: pid, w: t.customerId, ...page },
      invalid: { p: badProjectId, w: fc.oneof(fc.constant(''), unstorableString, fc.uuid(), fc.constant('nobody-here')), ...badPage },
    },
    {
      root: 'events',
      signature: '$p: ID!, $first: Int!, $after: String',
      call: 'events(projectId: $p, first: $first, after: $after) { totalCount edges { node { seq type } } }',
      base: { p: pid, ...page },
      invalid: { p: badProjectId, first: badFirst, after: fc.oneof(hostileString, fc.constantFrom('-1', '1.5', '1e3', '0x10', '', ' ', '9'.repeat(17), 'abc')).filter((s) => !/^\d{1,16}$/.test(s)) },
    },
    {
      root: 'webhookEvents',
      signature: '$p: ID!, $first: Int!, $after: String',
      call: 'webhookEvents(projectId: $p, first: $first, after: $after) { totalCount edges { node { id } } }',
      base: { p: pid, ...page },
      invalid: { p: badProjectId, ...badPage },
    },
  ];
}

function casesOf(spec: QuerySpec): fc.Arbitrary<GraphQLCase> {
  const query = `query Fuzz(${spec.signature}) { ${spec.call} }`;
  const make = (breaker: string, variables: Record<string, unknown>): GraphQLCase => ({ mutation: spec.root, breaker, query, variables });
  const arbs = Object.entries(spec.invalid).map(([name, invalid]) => invalid.map((value) => make(`${name}: invalid`, { ...spec.base, [name]: value })));
  arbs.push(
    fc.tuple(unknownKey(Object.keys(spec.base)), fc.jsonValue({ maxDepth: 1 })).map(([name, value]) => ({
      mutation: spec.root,
      breaker: 'unknown argument',
      query: query.replace(/\) \{/, `, ${JSON.stringify(name).slice(1, -1).replace(/[^A-Za-z0-9_]/g, '_') || 'x'}_: ${JSON.stringify(JSON.stringify(value ?? null))}) {`),
      variables: spec.base,
    })),
  );
  return fc.oneof(...arbs);
}

/** Documents that no limit, parser or schema lets through: depth, aliases, unknown fields, broken text. */
const hostileDocuments: fc.Arbitrary<GraphQLCase> = fc.oneof(
  fc.integer({ min: 3, max: 30 }).map((levels) => {
    let selection = 'id';
    for (let i = 0; i < levels; i++) selection = `project { wallets(first: 1) { edges { node { ${selection} } } } }`;
    return { mutation: null, breaker: 'deep nesting', query: `{ project(id: "1") { wallets(first: 1) { edges { node { ${selection} } } } } }` };
  }),
  fc.integer({ min: 31, max: 200 }).map((n) => ({ mutation: null, breaker: 'too many aliases', query: `{ ${Array.from({ length: n }, (_, i) => `a${i}: plan { code }`).join(' ')} }` })),
  fc.constantFrom('projects { edges { node { nope } } }', 'project(id: "1") { secret }', 'wallet { id }', 'holds(projectId: "1", first: "x") { totalCount }', 'project(id: 1.5) { id }', 'transactions { id }').map((q) => ({
    mutation: null,
    breaker: 'unknown field or argument',
    query: `{ ${q} }`,
  })),
  fc.oneof(fc.string({ maxLength: 80 }), hostileString, unstorableString).map((q) => ({ mutation: null, breaker: 'broken document', query: `{ projects(first: 1) { ${q} } ` })),
  // comment padding up to the body limit around a document that is still wrong (CONTRACT §18 clarification: memory bounded in bytes)
  fc.tuple(fc.integer({ min: 40, max: 90 }), fc.integer({ min: 1, max: 1_000_000 }), fc.constantFrom('{ nope }', '{ projects(first: 1) { edges { node { secret } } } }', '{ plan { code ')).map(([kib, salt, body]) => ({
    mutation: null,
    breaker: 'comment padding',
    query: `# ${salt}\n${`#${'x'.repeat(1022)}\n`.repeat(kib)}${body}`,
  })),
);

/** `perQuery` cases for each query plus `documents` hostile documents (fixed seed). */
export function graphqlQueryCases(target: FuzzTarget, perQuery: number, documents: number, seed: number): GraphQLCase[] {
  return [...queries(target).flatMap((spec, i) => fc.sample(casesOf(spec), { numRuns: perQuery, seed: seed + 300 + i })), ...fc.sample(hostileDocuments, { numRuns: documents, seed: seed + 399 })];
}
