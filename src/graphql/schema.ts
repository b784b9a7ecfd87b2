import { buildSubgraphSchema } from '@apollo/subgraph';
import { MapperKind, mapSchema, printSchemaWithDirectives } from '@graphql-tools/utils';
import { execute, GraphQLObjectType, parse, type GraphQLSchema } from 'graphql';
import { buildTypeGraphqlSchema, subgraphResolvers } from './type-graphql-schema.js';

const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable"])';

/**
 * type-graphql takes no description for the root types; a consumer reads there what holds for
 * every operation of the kind (authentication, the errors any of them may give).
 */
const ROOT_DESCRIPTIONS: Record<string, string> = {
  Query:
    'Reads. Every operation needs the `api_key` header and counts against the plan\'s daily call quota. Errors come in `errors` with `extensions.code` and `extensions.details` (the REST error body\'s code and details): `unauthorized` (a missing or unknown key), `rate_limited` (the daily quota is spent), `validation_error` (a malformed argument, `details.field` naming it; or a document over the depth, alias, selection or cost limits, `details.limit` naming it, refused before anything runs), `not_found` (a missing resource, or another owner\'s: they are answered alike), `timeout` (a statement ran past the server\'s time-out), `internal_error`. Lists are Relay connections paged with `first` and `after`.',
  Mutation:
    'Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe.',
  Subscription:
    'Live feeds over WebSocket, on the path of the GraphQL endpoint, with the graphql-transport-ws protocol (the graphql-ws package): the `api_key` goes in the `connection_init` payload ({"api_key": "…"}); a missing or wrong key closes the socket with code 4401. An event reaches subscribers within a second of its commit, whichever instance committed it.',
};

export interface LedgerSchema {
  schema: GraphQLSchema;
  /** The subgraph SDL, as committed in schema/ledger.graphql. */
  sdl: string;
}

/**
 * type-graphql has no federation support of its own: build its schema, print it with the
 * `@key` directives, and hand SDL plus resolvers (with `__resolveReference`) to
 * `buildSubgraphSchema`. The result must not be transformed afterwards. What tsc's output runs
 * (tests, CLIs, a release); the bundle builds the same from the SDL the build printed with
 * subgraphSdl() (subgraph-schema.ts: the service imports that module, and this one on demand).
 */
export async function buildLedgerSchema(): Promise<LedgerSchema> {
  const typeGraphqlSchema = await buildTypeGraphqlSchema();
  const described = mapSchema(typeGraphqlSchema, {
    [MapperKind.ROOT_OBJECT]: (type) => new GraphQLObjectType({ ...type.toConfig(), description: ROOT_DESCRIPTIONS[type.name] }),
  });
  const sdl = `${FEDERATION_LINK}\n\n${printSchemaWithDirectives(described)}\n`;
  const schema = buildSubgraphSchema([{ typeDefs: parse(sdl), resolvers: subgraphResolvers(typeGraphqlSchema) as never }]);
  return { schema, sdl };
}

/** The SDL `_service { sdl }` answers: federation's print of the subgraph, which the build keeps (scripts/build.mjs). */
export async function subgraphSdl(): Promise<string> {
  const { schema } = await buildLedgerSchema();
  const result = await execute({ schema, document: parse('{ _service { sdl } }') });
  if (result.errors) throw result.errors[0];
  return (result.data as { _service: { sdl: string } })._service.sdl;
}
