import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import { execute, GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { mergesConditionalFields } from './conditional-merge.js';
import { compileDocument, isCompiled } from './jit.js';
import type { GraphQLContext } from './context.js';
import { planQuery } from './sql-plan/planner.js';
import type { PreparedPlans } from './sql-plan/prepared.js';
import { RawJsonData } from './sql-plan/raw-json.js';
import { CompiledDocuments, INTERPRETER } from './compiled-documents.js';

/** Compiled documents kept, by what they keep (retained-size.ts), least recently used out first. */
export const COMPILED_BYTES = 24 * 1024 * 1024;

/**
 * How operations run, behind Apollo's gateway interface: a SQL plan when the planner covers the
 * read (below), otherwise graphql-jit instead of graphql-js's interpreter. graphql-js walks
 * the document for every field of every object of a result; graphql-jit compiles a document once
 * into a function specialised for it, which is what makes a page of 100 wallets with their
 * balances and recent transactions cheap in CPU (measured: see bench/README.md). Apollo Server
 * takes a custom executor only through its gateway interface: parsing, validation (our limit
 * rules), plugins (the cost limit) and error formatting stay Apollo's.
 *
 * With `sqlPlans`, a read the SQL planner covers is answered by one statement whose JSON
 * PostgreSQL builds (sql-plan/planner.ts); the resolvers answer everything else, and any
 * planned read whose root is not found (their not_found error).
 */
export function executionGateway(schema: GraphQLSchema, options: { sqlPlans: boolean; prepared: PreparedPlans }): GatewayInterface {
  const compiled = new CompiledDocuments(COMPILED_BYTES);
  const { prepared } = options;
  const executor: GatewayExecutor = async (requestContext) => {
    const context = requestContext.context as unknown as GraphQLContext;
    if (options.sqlPlans && !context.answered.planTried) {
      const data = await planned(schema, prepared, requestContext.document, requestContext.operationName, requestContext.request.variables, context);
      if (data) return { data: data as unknown as Record<string, unknown> };
    }
    const key = `${requestContext.queryHash}/${requestContext.operationName ?? ''}`;
    let query = compiled.get(key);
    if (!query) {
      const result = mergesConditionalFields(requestContext.document) ? INTERPRETER : await compileDocument(schema, requestContext.document, requestContext.operationName);
      if (result !== INTERPRETER && !isCompiled(result)) return result;
      query = result;
      compiled.set(key, query, requestContext.document);
    }
    const variables = requestContext.request.variables ?? {};
    const result =
      query === INTERPRETER
        ? await execute({ schema, document: requestContext.document, contextValue: context, variableValues: variables, operationName: requestContext.operationName })
        : await query.query(undefined, context, variables);
    return withGraphQLErrors(result);
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

async function planned(schema: GraphQLSchema, prepared: PreparedPlans, document: DocumentNode, operationName: string | null, variables: Record<string, unknown> | undefined, context: GraphQLContext): Promise<RawJsonData | null> {
  const plan = planQuery({ schema, document, operationName, variables, ownerId: context.principal.ownerId, maxPageSize: context.limits.maxPageSize });
  if (!plan) return null;
  const [row] = await context.services.db.query<{ data: string | null }>(plan.sql, plan.params, prepared.nameOf(plan.sql));
  if (row?.data === null || row?.data === undefined) return null;
  context.answered.sqlPlan = true;
  return new RawJsonData(row.data);
}

/**
 * graphql-jit reports errors with its own GraphQLError, whose `extensions` is undefined unless the
 * original error carried some; Apollo's error formatting needs graphql's, with extensions. An
 * error without a path is a request error (variables that do not coerce, a scalar refusing a
 * value), which graphql-js reports before execution as Apollo's BAD_USER_INPUT.
 */
export function withGraphQLErrors(result: ExecutionResult): ExecutionResult {
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
