import 'reflect-metadata';
import { buildSchema, createResolversMap } from 'type-graphql';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { parse, type GraphQLSchema } from 'graphql';
import { resolvers } from './resolvers/index.js';
import { referenceResolvers } from './federation.js';

const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable"])';

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
  const typeGraphqlSchema = await buildSchema({ resolvers, skipCheck: true, validate: false });
  const sdl = `${FEDERATION_LINK}\n\n${printSchemaWithDirectives(typeGraphqlSchema)}\n`;
  const resolverMap = createResolversMap(typeGraphqlSchema) as Record<string, Record<string, unknown>>;
  for (const [typeName, resolveReference] of Object.entries(referenceResolvers)) {
    resolverMap[typeName] = { ...resolverMap[typeName], __resolveReference: resolveReference };
  }
  const schema = buildSubgraphSchema([{ typeDefs: parse(sdl), resolvers: resolverMap as never }]);
  return { schema, sdl };
}
