import { readFileSync } from 'node:fs';
import { composeServices } from '@apollo/composition';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { GraphQLDateTime, GraphQLJSON } from 'graphql-scalars';
import { startHiveGateway, type RunningGateway } from '../../gateway/hive-gateway.js';
import { composeSupergraph } from '../../gateway/supergraph.js';
import { expectStatus } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * CONTRACT §8 (clarified with part three): the committed subgraph SDL composes beside another
 * team's subgraph that defines the usual shared types itself — a Relay `PageInfo` and `JSON` /
 * `DateTime` scalars — with `@apollo/composition` and behind Hive Gateway.
 */
const LEDGER_SDL = readFileSync('schema/ledger.graphql', 'utf8');

/** A Federation 2 subgraph with its own Relay connection, as another team would write it. */
const ARTICLES_SDL = `
extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@shareable"])

scalar JSON
scalar DateTime

type PageInfo @shareable {
  hasNextPage: Boolean!
  hasPreviousPage: Boolean!
  startCursor: String
  endCursor: String
}

type Article {
  id: ID!
  publishedAt: DateTime!
  meta: JSON
}

type ArticleEdge {
  node: Article!
  cursor: String!
}

type ArticleConnection {
  edges: [ArticleEdge!]!
  pageInfo: PageInfo!
}

type Query {
  articles(first: Int! = 10): ArticleConnection!
}
`;

/** The same subgraph as a Federation 1 schema (no @link): its value types are shareable implicitly. */
const ARTICLES_FED1_SDL = ARTICLES_SDL.replace(/^extend schema .*$/m, '').replace('type PageInfo @shareable', 'type PageInfo');

const ARTICLES = [
  { id: 'a1', publishedAt: new Date('2026-01-31T12:00:00.000Z'), meta: { tags: ['ledger'], pinned: true } },
  { id: 'a2', publishedAt: new Date('2026-02-01T08:30:00.000Z'), meta: null },
];

const articleResolvers = {
  JSON: GraphQLJSON,
  DateTime: GraphQLDateTime,
  Query: {
    articles: (_: unknown, { first }: { first: number }) => {
      const edges = ARTICLES.slice(0, first).map((node) => ({ node, cursor: node.id }));
      return {
        edges,
        pageInfo: { hasNextPage: first < ARTICLES.length, hasPreviousPage: false, startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null },
      };
    },
  },
};

function compose(articlesSdl: string, ledgerSdl = LEDGER_SDL) {
  return composeServices([
    { name: 'ledger', url: 'http://ledger.invalid/graphql', typeDefs: parse(ledgerSdl) },
    { name: 'articles', url: 'http://articles.invalid/graphql', typeDefs: parse(articlesSdl) },
  ]);
}

describe('@apollo/composition: the committed SDL beside a Relay-style subgraph', () => {
  it('composes with a Federation 2 subgraph defining PageInfo (@shareable), JSON and DateTime: no error, no hint', () => {
    const result = compose(ARTICLES_SDL);
    expect(result.errors ?? []).toEqual([]);
    expect((result.hints ?? []).map((hint) => hint.toString())).toEqual([]);
    const supergraph = parse(result.supergraphSdl!);
    const names = supergraph.definitions.flatMap((d) => ('name' in d && d.name ? [d.name.value] : []));
    // one PageInfo, one JSON, one DateTime in the supergraph, served by both subgraphs
    for (const shared of ['PageInfo', 'JSON', 'DateTime']) expect(names.filter((n) => n === shared)).toHaveLength(1);
    expect(result.supergraphSdl).toMatch(/type PageInfo\s+@join__type\(graph: ARTICLES\)\s+@join__type\(graph: LEDGER\)/);
  });

  it('composes with a Federation 1 subgraph defining the same types', () => {
    const result = compose(ARTICLES_FED1_SDL);
    expect(result.errors ?? []).toEqual([]);
  });

  it('PageInfo is what makes it compose: without @shareable, four INVALID_FIELD_SHARING errors', () => {
    expect(LEDGER_SDL).toMatch(/^type PageInfo @shareable \{$/m);
    const result = compose(ARTICLES_SDL, LEDGER_SDL.replace('type PageInfo @shareable {', 'type PageInfo {'));
    expect((result.errors ?? []).map((e) => e.extensions.code)).toEqual(Array(4).fill('INVALID_FIELD_SHARING'));
  });
});

describe('Hive Gateway: the ledger beside a Relay-style subgraph', () => {
  let ledger: TestApp;
  let articles: { url: string; stop(): Promise<void> };
  let gateway: RunningGateway;
  let key: string;

  beforeAll(async () => {
    ledger = await startTestApp();
    const server = new ApolloServer({
      schema: buildSubgraphSchema([{ typeDefs: parse(ARTICLES_SDL), resolvers: articleResolvers as never }]),
      stopOnTerminationSignals: false,
      plugins: [ApolloServerPluginInlineTraceDisabled()],
    });
    const { url } = await startStandaloneServer(server, { listen: { port: 0, host: '127.0.0.1' } });
    articles = { url, stop: () => server.stop() };
    const supergraph = composeSupergraph([
      { name: 'ledger', url: `${ledger.baseUrl}/graphql`, sdl: LEDGER_SDL },
      { name: 'articles', url, sdl: ARTICLES_SDL },
    ]);
    gateway = await startHiveGateway({ supergraph });
    key = await ledger.issueKey('composition-owner');
    for (const name of ['First', 'Second']) await expectStatus(ledger.request('POST', '/projects', { key, body: { name } }), 201);
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    await articles?.stop();
    await ledger?.close();
  });

  it("serves one query across both: each connection's PageInfo from its own subgraph, DateTime and JSON from each", async () => {
    const query = `{
      projects(first: 1) { totalCount edges { node { name createdAt } cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }
      articles(first: 1) { edges { node { id publishedAt meta } cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }
    }`;
    const res = await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json', api_key: key }, body: JSON.stringify({ query }) });
    const body = await res.json();
    expect(body.errors).toBeUndefined();
    const projects = body.data.projects;
    expect(projects.totalCount).toBe(2);
    expect(projects.edges).toEqual([{ node: { name: 'First', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) }, cursor: expect.any(String) }]);
    expect(projects.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: projects.edges[0].cursor, endCursor: projects.edges[0].cursor });
    expect(body.data.articles).toEqual({
      edges: [{ node: { id: 'a1', publishedAt: '2026-01-31T12:00:00.000Z', meta: { tags: ['ledger'], pinned: true } }, cursor: 'a1' }],
      pageInfo: { hasNextPage: true, hasPreviousPage: false, startCursor: 'a1', endCursor: 'a1' },
    });
  });
});
