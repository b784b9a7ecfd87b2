import { ApolloServer, HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import type { IncomingMessage } from 'node:http';
import type { DocumentNode, GraphQLError, GraphQLSchema } from 'graphql';
import type { Services } from '../services.js';
import { LedgerError } from '../domain/errors.js';
import type { Reply } from '../http/route.js';
import { createContext, type GraphQLContext } from './context.js';
import { ledgerSchema } from './subgraph-schema.js';
import { formatError, isUnexpected } from './errors.js';
import { executionGateway } from './execution-gateway.js';
import { costLimitPlugin } from './limits/cost.js';
import { graphQLLimits, limitRules, type GraphQLLimits } from './limits/limits.js';
import { refuseOversizedQuery } from './limits/selection-limit.rule.js';
import { stringifyResult } from './sql-plan/raw-json.js';
import { PreparedPlans } from './sql-plan/prepared.js';
import { PlannedOperations } from './planned-operations.js';
import { documentStore, persistedQueryStore } from './apollo-caches.js';

export interface GraphQLEndpoint {
  /** The executable subgraph schema (subscriptions over WebSocket run on it too: subscriptions/websocket-server.ts). */
  schema: GraphQLSchema;
  handle(req: IncomingMessage, body: unknown, principal: GraphQLContext['principal'], requestId: string, log: GraphQLContext['log']): Promise<Reply>;
  stop(): Promise<void>;
}

/**
 * Apollo Server behind our own HTTP pipeline (auth, call quota and statement counting happen
 * there). Abusive operations are refused before execution: by the parser (token limit), by the
 * expanded size of the document (before Apollo, whose validation has quadratic rules), by
 * validation rules (depth, aliases) and by the cost plugin once variables are known.
 */
export interface GraphQLEndpointOptions {
  /** Answer plannable reads with one SQL statement (sql-plan/planner.ts). */
  sqlPlans: boolean;
  /** Say so in an `x-graphql-plan: sql` header (tests, benchmarks; with the statement count). */
  exposePlan: boolean;
  /** The subgraph schema of ledgerSchema() when built already (src/start.ts, first start); built here when absent. */
  schema?: GraphQLSchema;
}

export async function createGraphQLEndpoint(services: Services, limits: GraphQLLimits = graphQLLimits(), options: GraphQLEndpointOptions = { sqlPlans: true, exposePlan: false }): Promise<GraphQLEndpoint> {
  const schema = options.schema ?? (await ledgerSchema());
  const prepared = new PreparedPlans();
  const plannedOperations = new PlannedOperations(schema, limits, prepared);
  /** The document of each operation Apollo resolved, by its context's `answered` (shared by Apollo's copies of the context). */
  const documents = new WeakMap<GraphQLContext['answered'], DocumentNode>();
  const apollo = new ApolloServer<GraphQLContext>({
    gateway: executionGateway(schema, { sqlPlans: options.sqlPlans, prepared }),
    stringifyResult,
    csrfPrevention: true,
    allowBatchedHttpRequests: false,
    introspection: true,
    parseOptions: { maxTokens: limits.maxTokens },
    // bounded by the bytes they keep, not by Apollo's estimate (CONTRACT §18; apollo-caches.ts)
    documentStore: documentStore(),
    cache: persistedQueryStore(),
    validationRules: limitRules(limits, 'http'),
    formatError,
    includeStacktraceInErrorResponses: false,
    // The service owns SIGTERM/SIGINT (src/main.ts); Apollo must not stop itself on them.
    stopOnTerminationSignals: false,
    // No HTTP cache hints for an authenticated API: without the cache-control plugin Apollo does
    // not wrap every field resolver.
    plugins: [ApolloServerPluginInlineTraceDisabled(), ApolloServerPluginCacheControlDisabled(), costLimitPlugin(limits.maxCost), logUnexpectedErrors, noteOperation(documents)],
  });
  await apollo.start();
  return {
    schema,
    async handle(req, body, principal, requestId, log) {
      const operation = options.sqlPlans && req.method === 'POST' ? PlannedOperations.bodyOf(body) : null;
      const accept = req.headers.accept;
      let planTried = false;
      if (operation) {
        const answer = await plannedOperations.answer(operation, accept, principal, services.db).catch(() => APOLLO_ANSWERS);
        if (answer.kind === 'answered') {
          services.metrics.countGraphqlOperation('query', true);
          return plannedReply(answer.data, answer.contentType, options.exposePlan);
        }
        planTried = answer.planTried;
      }
      const headers = new HeaderMap();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const url = new URL(req.url ?? '/', 'http://localhost');
      const oversized = refuseOversizedQuery(req.method === 'GET' ? url.searchParams.get('query') : (body as { query?: unknown } | null)?.query, limits);
      if (oversized) return refusedBeforeApollo(oversized);
      let context: GraphQLContext | undefined;
      const response = await apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest: { method: req.method ?? 'POST', headers, search: url.search, body },
        context: async () => {
          context = createContext(principal, services, requestId, log, limits);
          if (planTried) context.answered.planTried = true;
          return context;
        },
      });
      if (response.body.kind !== 'complete') throw new LedgerError('validation_error', 'incremental delivery is not supported');
      const replyHeaders: Record<string, string> = {};
      for (const [name, value] of response.headers) if (name !== 'content-length') replyHeaders[name] = value;
      if (options.exposePlan && context?.answered.sqlPlan) replyHeaders['x-graphql-plan'] = 'sql';
      if (context?.answered.operation) services.metrics.countGraphqlOperation(context.answered.operation, context.answered.sqlPlan);
      const status = response.status ?? 200;
      const document = context && documents.get(context.answered);
      if (operation && context?.answered.sqlPlan && status === 200 && document && replyHeaders['content-type'] !== undefined) {
        plannedOperations.remember(operation, { document, accept, contentType: replyHeaders['content-type'] });
      }
      return jsonReply(status, response.body.string, replyHeaders);
    },
    stop: () => apollo.stop(),
  };
}

/** A failure on the short way (the database, say): Apollo runs the operation again and answers as it answers any failure. */
const APOLLO_ANSWERS = { kind: 'apollo', planTried: false } as const;

/**
 * What Apollo sends for a planned operation's data (raw-json.ts's stringifyResult, the content
 * type it chose for this Accept). With `exposePlan` (tests, benchmarks) a header says it took the
 * short way.
 */
function plannedReply(data: string, contentType: string, exposePlan: boolean): Reply {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (exposePlan) {
    headers['x-graphql-plan'] = 'sql';
    headers['x-graphql-known-operation'] = 'yes';
  }
  return jsonReply(200, `{"data":${data}}\n`, headers);
}

function jsonReply(status: number, json: string, headers: Record<string, string>): Reply {
  return {
    status,
    json,
    // parsed only if someone reads it (a REST Idempotency-Key on POST /graphql stores the body)
    get body() {
      return JSON.parse(json) as unknown;
    },
    headers,
  };
}

/** A refusal made before Apollo parses the document, answered as Apollo answers a validation error. */
function refusedBeforeApollo(error: GraphQLError): Reply {
  const json = JSON.stringify({ errors: [formatError(error.toJSON(), error)] });
  return {
    status: 400,
    json,
    get body() {
      return JSON.parse(json) as unknown;
    },
    headers: { 'content-type': 'application/json; charset=utf-8' },
  };
}

/**
 * Operations that passed parsing and validation are counted by type (metrics); their document is
 * kept for the short way (planned-operations.ts) should the SQL plan answer them.
 */
function noteOperation(documents: WeakMap<GraphQLContext['answered'], DocumentNode>): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document, contextValue }) {
          if (operation) contextValue.answered.operation = operation.operation;
          documents.set(contextValue.answered, document);
        },
      };
    },
  };
}

/** Answers carry only `internal_error`; the cause goes to the log, with the request id (CONTRACT §6). */
const logUnexpectedErrors: ApolloServerPlugin<GraphQLContext> = {
  async requestDidStart() {
    return {
      async didEncounterErrors({ errors, contextValue, operationName }) {
        for (const error of errors) {
          if (isUnexpected(error)) contextValue.log.error({ err: error.originalError ?? error, path: error.path, operationName }, 'unexpected GraphQL error');
        }
      },
    };
  },
};
