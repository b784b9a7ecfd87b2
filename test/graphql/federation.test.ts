import { ApolloGateway, IntrospectAndCompose, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { fundedProject, transfer, type FundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { statementsOf } from '../support/statements.js';

/**
 * A second subgraph, defined here, extends the ledger's Wallet with a field of its own and
 * lists wallets by id; an in-process @apollo/gateway composes it with the ledger subgraph
 * (served over HTTP by the real app) and forwards the caller's api_key.
 */
interface GatewayContext {
  apiKey: string;
  /** The statements of each ledger subgraph fetch (test/support/statements.ts). */
  ledgerStatements: number[];
}

const LOYALTY_SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])
  type Wallet @key(fields: "id") {
    id: ID!
    loyaltyTier: String!
  }
  type Query {
    loyaltyMembers(ids: [ID!]!): [Wallet!]!
  }
`;

const tierOf = (id: string): string => (parseInt(id.slice(0, 2), 16) % 2 === 0 ? 'gold' : 'silver');

let t: TestApp;
let p: FundedProject;
let loyalty: ApolloServer;
let gatewayServer: ApolloServer<GatewayContext> | undefined;
let walletIds: string[];

beforeAll(async () => {
  t = await startTestApp();
  p = await fundedProject(t, await t.issueKey('federation', 'enterprise'), { customers: 19, systemBalance: 10_000 });
  for (const [i, customer] of p.customers.entries()) await transfer(t, p, p.system.id, customer.id, i + 1);
  walletIds = [p.system.id, ...p.customers.map((c) => c.id)];

  loyalty = new ApolloServer({
    schema: buildSubgraphSchema([
      {
        typeDefs: parse(LOYALTY_SDL),
        resolvers: {
          Query: { loyaltyMembers: (_: unknown, { ids }: { ids: string[] }) => ids.map((id) => ({ id })) },
          Wallet: {
            __resolveReference: (reference: { id: string }) => ({ id: reference.id }),
            loyaltyTier: (wallet: { id: string }) => tierOf(wallet.id),
          },
        } as never,
      },
    ]),
    plugins: [ApolloServerPluginInlineTraceDisabled()],
  });
  const { url: loyaltyUrl } = await startStandaloneServer(loyalty, { listen: { port: 0, host: '127.0.0.1' } });

  const gateway = new ApolloGateway({
    supergraphSdl: new IntrospectAndCompose({
      subgraphs: [
        { name: 'ledger', url: `${t.baseUrl}/graphql` },
        { name: 'loyalty', url: loyaltyUrl },
      ],
      introspectionHeaders: { api_key: p.key },
    }),
    buildService: ({ name, url }) =>
      new RemoteGraphQLDataSource<GatewayContext>({
        url,
        willSendRequest({ request, context }) {
          if (context.apiKey) request.http?.headers.set('api_key', context.apiKey);
        },
        didReceiveResponse({ response, context }) {
          if (name === 'ledger' && response.http) context.ledgerStatements?.push(statementsOf(response.http)); // no context while composing
          return response;
        },
      }),
  });
  const server = new ApolloServer<GatewayContext>({ gateway });
  await server.start();
  gatewayServer = server;
});

afterAll(async () => {
  await gatewayServer?.stop().catch(() => undefined); // refuses when start() failed
  await loyalty?.stop();
  await t.close();
});

async function throughGateway(query: string, variables: Record<string, unknown>, apiKey = p.key) {
  const context: GatewayContext = { apiKey, ledgerStatements: [] };
  const response = await gatewayServer!.executeOperation({ query, variables }, { contextValue: context });
  if (response.body.kind !== 'single') throw new Error('unexpected incremental response');
  return { result: response.body.singleResult as { data?: any; errors?: any[] }, ledgerStatements: context.ledgerStatements };
}

describe('a supergraph of the ledger and a subgraph extending Wallet', () => {
  it('returns ledger balances and the other subgraph field for 20 wallets (ledger first)', async () => {
    const { result } = await throughGateway(
      `query($id: ID!) { project(id: $id) { wallets(first: 20) { edges { node { id address balances { currency balance } loyaltyTier } } } } }`,
      { id: String(p.projectId) },
    );
    expect(result.errors).toBeUndefined();
    const nodes = result.data.project.wallets.edges.map((e: { node: unknown }) => e.node);
    expect(nodes).toHaveLength(20);
    expect(nodes[0]).toEqual({ id: p.system.id, address: p.system.address, balances: [{ currency: 'PTS', balance: '9810' }], loyaltyTier: tierOf(p.system.id) });
    p.customers.forEach((customer, i) => {
      expect(nodes[i + 1]).toEqual({ id: customer.id, address: customer.address, balances: [{ currency: 'PTS', balance: String(i + 1) }], loyaltyTier: tierOf(customer.id) });
    });
  });

  it('resolves 20 Wallet references in the ledger (other subgraph first) in one batched _entities fetch', async () => {
    const { result, ledgerStatements } = await throughGateway(
      `query($ids: [ID!]!) { loyaltyMembers(ids: $ids) { id loyaltyTier address balances { balance } project { name } } }`,
      { ids: walletIds },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.loyaltyMembers).toHaveLength(20);
    expect(result.data.loyaltyMembers[5]).toEqual({
      id: p.customers[4].id,
      loyaltyTier: tierOf(p.customers[4].id),
      address: p.customers[4].address,
      balances: [{ balance: '5' }],
      project: { name: 'Funded project' },
    });
    expect(ledgerStatements).toHaveLength(1);
    expect(ledgerStatements[0]).toBeLessThanOrEqual(3); // wallets, balances, projects
  });

  it("resolves another owner's wallets to null through the gateway", async () => {
    const stranger = await t.issueKey('federation-stranger');
    await t.graphql(stranger, '{ plan { planCode } }');
    const { result } = await throughGateway(`query($ids: [ID!]!) { loyaltyMembers(ids: $ids) { id address } }`, { ids: walletIds.slice(0, 3) }, stranger);
    // `address` is non-null in Wallet, so an unresolvable reference nulls the member and the list
    expect(result.data?.loyaltyMembers ?? null).toBeNull();
  });
});
