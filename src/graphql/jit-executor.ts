import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import { GraphQLError, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

const CACHE_SIZE = 500;

/**
 * Executes operations with graphql-jit instead of graphql-js's interpreter. graphql-js walks
 * the document for every field of every object of a result; graphql-jit compiles a document once
 * into a function specialised for it, which is what makes a page of 100 wallets with their
 * balances and recent transactions cheap in CPU (measured: see bench/README.md). Apollo Server
 * takes a custom executor only through its gateway interface: parsing, validation (our limit
 * rules), plugins (the cost limit) and error formatting stay Apollo's.
 */
export function jitGateway(schema: GraphQLSchema): GatewayInterface {
  const compiled = new Map<string, CompiledQuery>();
  const executor: GatewayExecutor = async (requestContext) => {
    const key = `${requestContext.queryHash}/${requestContext.operationName ?? ''}`;
    let query = compiled.get(key);
    if (!query) {
      const result = compileQuery(schema, requestContext.document, requestContext.operationName ?? undefined);
      if (!isCompiledQuery(result)) return result;
      query = result;
      if (compiled.size >= CACHE_SIZE) compiled.delete(compiled.keys().next().value!);
      compiled.set(key, query);
    }
    return withGraphQLErrors(await query.query(undefined, requestContext.context, requestContext.request.variables ?? {}));
  };
  return {
    async load() {
      return { executor };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => undefined;
    },
    async stop() {},
  };
}

/**
 * graphql-jit reports errors with its own GraphQLError, whose `extensions` is undefined unless the
 * original error carried some; Apollo's error formatting needs graphql's, with extensions. An
 * error without a path is a request error (variables that do not coerce, a scalar refusing a
 * value), which graphql-js reports before execution as Apollo's BAD_USER_INPUT.
 */
function withGraphQLErrors(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.length) return result;
  const errors = result.errors.map((error) => {
    const extensions = { ...error.extensions };
    if (!error.path && extensions.code === undefined) extensions.code = 'BAD_USER_INPUT';
    const upstream = new GraphQLError(error.message, { path: error.path, originalError: error.originalError ?? undefined, extensions });
    Object.defineProperty(upstream, 'locations', { value: error.locations, enumerable: Boolean(error.locations?.length) });
    return upstream;
  });
  return { ...result, errors };
}
