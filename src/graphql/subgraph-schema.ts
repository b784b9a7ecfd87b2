// The subgraph schema the service runs (src/start.ts, apollo.ts). Two files of @apollo/subgraph
// that need only graphql; the rest of it (federation's schema model and validations) and
// @graphql-tools/utils load with schema.ts, which the bundle, carrying the build's SDL, never reads.
import { addResolversToSchema } from '@apollo/subgraph/dist/schema-helper/buildSchemaFromSDL.js';
import { entitiesResolver } from '@apollo/subgraph/dist/types.js';
import { buildASTSchema, parse, type GraphQLSchema } from 'graphql';
import { buildTypeGraphqlSchema, subgraphResolvers } from './type-graphql-schema.js';

/**
 * The federation SDL the build printed (scripts/build.mjs defines it in the bundle: what
 * subgraphSdl() answers); not defined where tsc's output runs (tests, CLIs, a release).
 */
declare const LEDGER_SUBGRAPH_SDL: string | undefined;

/** True when ledgerSchema() builds from the build's SDL (the bundle): the start-up log says so. */
export const PREBUILT_SUBGRAPH = typeof LEDGER_SUBGRAPH_SDL === 'string';

/**
 * The executable subgraph schema the service runs: buildLedgerSchema()'s, made from the SDL the
 * build printed when there is one (about 0.2 s less of a start: no federation validation, no
 * printing and parsing of the schema twice over), else by buildLedgerSchema() itself.
 */
export async function ledgerSchema(): Promise<GraphQLSchema> {
  return typeof LEDGER_SUBGRAPH_SDL === 'string' ? schemaFromSubgraphSdl(LEDGER_SUBGRAPH_SDL) : (await (await import('./schema.js')).buildLedgerSchema()).schema;
}

/**
 * What buildSubgraphSchema (@apollo/subgraph 2.14) makes, from the SDL it printed: it builds the
 * graphql-js schema from that very text (federation's toGraphQLJSSchema: buildASTSchema of
 * parse(print, noLocation)), then adds `_service`, `_entities` with `_Entity.__resolveType` when
 * there are entities, then the module's resolvers, by its own addResolversToSchema. Left out:
 * its validations (the build ran them on this text) and the definitions toGraphQLJSSchema adds
 * for extensions without one (ours has none: federation prints `schema` before `extend schema`).
 * test/graphql/subgraph-schema.test.ts holds the two alike.
 */
export async function schemaFromSubgraphSdl(sdl: string): Promise<GraphQLSchema> {
  const typeGraphqlSchema = await buildTypeGraphqlSchema();
  const schema = buildASTSchema(parse(sdl, { noLocation: true }), { assumeValidSDL: true });
  const query = schema.getQueryType()!.name;
  addResolversToSchema(schema, { [query]: { _service: () => ({ sdl }) } });
  if (schema.getType('_Entity')) {
    addResolversToSchema(schema, {
      [query]: { _entities: (_source, { representations }, context, info) => entitiesResolver({ representations, context, info }) },
      _Entity: { __resolveType: (parent: { __typename: string }) => parent.__typename },
    });
  }
  addResolversToSchema(schema, subgraphResolvers(typeGraphqlSchema) as never);
  return schema;
}
