// The subgraph schema the service runs (src/start.ts, apollo.ts). Two files of @apollo/subgraph
// that need only graphql; the rest of it (federation's schema model and validations) and
// @graphql-tools/utils load with schema.ts, which the bundle, carrying the build's SDL, never reads.
import { addResolversToSchema } from '@apollo/subgraph/dist/schema-helper/buildSchemaFromSDL.js';
import { entitiesResolver } from '@apollo/subgraph/dist/types.js';
import { buildASTSchema, isEnumType, isInputObjectType, isInterfaceType, isObjectType, parse, type GraphQLNamedType, type GraphQLSchema } from 'graphql';
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
  const resolvers = subgraphResolvers(typeGraphqlSchema);
  const drift = schemaDrift(schema, typeGraphqlSchema, resolvers);
  if (drift.length > 0) throw new Error(`the build's subgraph SDL does not match the service's resolvers (${drift.slice(0, 5).join('; ')}): run npm run build`);
  addResolversToSchema(schema, resolvers as never);
  return schema;
}

/** Fields, input fields or enum values of a type, by name (none for scalars and unions). */
const memberNames = (type: GraphQLNamedType | undefined | null): Set<string> =>
  new Set(
    isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)
      ? Object.keys(type.getFields())
      : isEnumType(type)
        ? type.getValues().map((value) => value.name)
        : [],
  );

/**
 * What the SDL and the code disagree on: a type or member of type-graphql's schema missing from
 * the SDL's, one of the SDL's (federation's own aside) missing from type-graphql's, or a resolver
 * for something the SDL lacks. addResolversToSchema skips what it cannot find, so a drift would
 * otherwise leave fields on default resolvers without a word. The SDL and the bundle come from one
 * build, so this never fires unless the bundling changed what type-graphql sees (keepNames, say);
 * it costs about a millisecond per start.
 */
function schemaDrift(sdlSchema: GraphQLSchema, typeGraphqlSchema: GraphQLSchema, resolvers: Record<string, Record<string, unknown>>): string[] {
  const drift: string[] = [];
  const federation = (name: string) => name.startsWith('_') || name.startsWith('link__') || name.startsWith('federation__');
  for (const type of Object.values(typeGraphqlSchema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    const other = sdlSchema.getType(type.name);
    if (!other) {
      drift.push(`type ${type.name} missing from the SDL`);
      continue;
    }
    const [ours, theirs] = [memberNames(type), memberNames(other)];
    for (const name of theirs) if (!ours.has(name) && !federation(name)) drift.push(`${type.name}.${name} missing from the code`);
    for (const name of ours) if (!theirs.has(name)) drift.push(`${type.name}.${name} missing from the SDL`);
  }
  for (const type of Object.values(sdlSchema.getTypeMap())) {
    if (!type.name.startsWith('__') && !federation(type.name) && !typeGraphqlSchema.getType(type.name)) drift.push(`type ${type.name} missing from the code`);
  }
  for (const [typeName, config] of Object.entries(resolvers)) {
    const type = sdlSchema.getType(typeName);
    if (!type) drift.push(`resolvers of ${typeName}, a type the SDL lacks`);
    else if (isObjectType(type) || isInterfaceType(type)) {
      const fields = memberNames(type);
      for (const name of Object.keys(config)) if (!name.startsWith('__') && !fields.has(name)) drift.push(`a resolver of ${typeName}.${name}, a field the SDL lacks`);
    }
  }
  return drift;
}
