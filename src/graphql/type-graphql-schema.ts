import 'reflect-metadata';
import { buildSchema, createResolversMap, type PubSub } from 'type-graphql';
import type { GraphQLSchema } from 'graphql';
import { resolvers } from './resolvers/index.js';
import { referenceResolvers } from './federation.js';

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

/** type-graphql's schema of our resolvers: the executable part of the subgraph schema. */
export function buildTypeGraphqlSchema(): Promise<GraphQLSchema> {
  return buildSchema({ resolvers, skipCheck: true, validate: false, pubSub: NO_PUB_SUB });
}

/** type-graphql's resolvers, with `__resolveReference` per entity type: the subgraph module's resolvers. */
export function subgraphResolvers(typeGraphqlSchema: GraphQLSchema): Record<string, Record<string, unknown>> {
  const resolverMap = createResolversMap(typeGraphqlSchema) as Record<string, Record<string, unknown>>;
  for (const [typeName, resolveReference] of Object.entries(referenceResolvers)) {
    resolverMap[typeName] = { ...resolverMap[typeName], __resolveReference: resolveReference };
  }
  return resolverMap;
}
