import 'reflect-metadata';
import { buildSchema, createResolversMap, type PubSub } from 'type-graphql';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { parse, type GraphQLSchema } from 'graphql';
import { resolvers } from './resolvers/index.js';
import { referenceResolvers } from './federation.js';

const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable"])';

/**
 * type-graphql insists on a PubSub once a resolver declares a subscription, even when every
 * subscription brings its own `subscribe` (ours open event feeds: src/domain/events/event-feed.service.ts).
 */
const NO_PUB_SUB: PubSub = {
  publish() {
    throw new Error('subscriptions publish through the event hub, not a PubSub');
  },
  subscribe() {
    throw new Error('subscriptions subscribe through event feeds, not a PubSub');
  },
};

export interface LedgerSchema {
  schema: GraphQLSchema;
  /** The subgraph SDL, as committed in schema/ledger.graphql. */
  sdl: string;
}

/**
 * type-graphql has no federation support of its own: build its schema, print it with the
 * `@key` directives, and hand SDL plus resolvers (with `__resolveReference`) to
 * `buildSubgraphSchema`. The result must not be transformed afterwards.
 */
export async function buildLedgerSchema(): Promise<LedgerSchema> {
  const typeGraphqlSchema = await buildSchema({ resolvers, skipCheck: true, validate: false, pubSub: NO_PUB_SUB });
  const sdl = `${FEDERATION_LINK}\n\n${printSchemaWithDirectives(typeGraphqlSchema)}\n`;
  const resolverMap = createResolversMap(typeGraphqlSchema) as Record<string, Record<string, unknown>>;
  for (const [typeName, resolveReference] of Object.entries(referenceResolvers)) {
    resolverMap[typeName] = { ...resolverMap[typeName], __resolveReference: resolveReference };
  }
  const schema = buildSubgraphSchema([{ typeDefs: parse(sdl), resolvers: resolverMap as never }]);
  return { schema, sdl };
}
