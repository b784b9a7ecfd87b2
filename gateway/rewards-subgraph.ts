import { createHash } from 'node:crypto';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';

/**
 * A second, tiny subgraph for the gateway demo and test: it extends the ledger's `Wallet` entity
 * with a loyalty `tier` (derived from the wallet id, so it needs no storage) and offers one root
 * field returning a ledger wallet by reference, which the gateway resolves through the ledger's
 * `_entities` with the caller's api_key.
 */
export const REWARDS_SDL = `
extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])

type Wallet @key(fields: "id") {
  id: ID!
  "A loyalty tier the rewards service assigns to the wallet."
  tier: String!
}

type Query {
  "A wallet of the ledger, by id: the ledger answers its fields (null when the caller may not see it)."
  featuredWallet(id: ID!): Wallet
}
`;

const TIERS = ['bronze', 'silver', 'gold'];

export function tierOf(walletId: string): string {
  return TIERS[createHash('sha256').update(walletId).digest()[0] % TIERS.length];
}

const resolvers = {
  Query: {
    featuredWallet: (_: unknown, { id }: { id: string }) => ({ id }),
  },
  Wallet: {
    __resolveReference: (reference: { id: string }) => ({ id: reference.id }),
    tier: (wallet: { id: string }) => tierOf(wallet.id),
  },
};

export interface RunningSubgraph {
  url: string;
  stop(): Promise<void>;
}

/** Serves the rewards subgraph on `port` (0: any free port). */
export async function startRewardsSubgraph(port = 0, host = '127.0.0.1'): Promise<RunningSubgraph> {
  const server = new ApolloServer({ schema: buildSubgraphSchema([{ typeDefs: parse(REWARDS_SDL), resolvers }]), stopOnTerminationSignals: false, plugins: [ApolloServerPluginInlineTraceDisabled()] });
  const { url } = await startStandaloneServer(server, { listen: { port, host } });
  return { url: new URL('/', url).toString(), stop: () => server.stop() };
}
