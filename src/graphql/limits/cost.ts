import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, getNamedType, getNullableType, getVariableValues, isLeafType, isListType, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { createRequire } from 'node:module';
import type { ComplexityEstimator, getComplexity as GetComplexity } from 'graphql-query-complexity';
import { LedgerError } from '../../domain/errors.js';

/**
 * The cost model: roughly the number of objects an operation can materialise.
 *
 * - a scalar or enum field costs 0 (it is read from an object already loaded);
 * - an object field costs 1 + the cost of its selection;
 * - a field with a `first` argument (a connection) costs 1 + first × the cost of its selection
 *   (`first` as given, or its default);
 * - `_entities` costs (number of representations) × (1 + the cost of its selection);
 * - any other list (`balances`: one entry per asset of the project) costs
 *   UNPAGED_LIST_SIZE × (1 + the cost of its selection);
 * - introspection costs 0 (it never reaches the database).
 *
 * The benchmark query — project → wallets(first: 100) → balances + transactions(first: 5) with
 * their fields and page infos (test/graphql/documents/nested.graphql) — costs 2,902; budget 10,000. Asking for each of 100 wallets' 100 latest
 * transactions (≥ 20,000) or nesting a second connection inside it is refused.
 */
export const UNPAGED_LIST_SIZE = 10;

/**
 * The CommonJS build, on purpose: its ESM build imports `graphql/index.mjs`, a second copy of
 * graphql next to the `graphql` (CommonJS main) that Apollo and type-graphql load, and graphql
 * refuses a schema built by the other copy ("from another module or realm").
 */
const { getComplexity } = createRequire(import.meta.url)('graphql-query-complexity') as { getComplexity: typeof GetComplexity };

export const estimateCost: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
  // introspection never reaches the database; its size is bounded by the schema's
  if (field.name.startsWith('__') || type.name.startsWith('__')) return 0;
  if (isLeafType(getNamedType(field.type))) return 0;
  if (field.name === '_entities') {
    const count = Array.isArray(args.representations) ? args.representations.length : 1;
    return count * (1 + childComplexity);
  }
  if (field.args.some((arg) => arg.name === 'first')) {
    const first = typeof args.first === 'number' && args.first > 0 ? args.first : 0;
    return 1 + first * childComplexity;
  }
  // Relay `edges` are the page itself: the connection field above already multiplied by `first`.
  if (isListType(getNullableType(field.type)) && field.name !== 'edges') return UNPAGED_LIST_SIZE * (1 + childComplexity);
  return 1 + childComplexity;
};

/**
 * Computes the cost once the operation and its variables are known (validation rules do not see
 * variables) and refuses it, before execution, when it is over `maxCost`.
 */
export function costLimitPlugin(maxCost: number): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, request, operation, operationName }) {
          const refused = costRefusal({ schema, document, variables: request.variables ?? {}, operation, operationName: operationName ?? undefined }, maxCost);
          if (refused) throw refused;
        },
      };
    },
  };
}

export interface CostedOperation {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation?: OperationDefinitionNode | null;
  operationName?: string;
  variables: Record<string, unknown>;
}

/**
 * The refusal of an operation over `maxCost`, or null when it is within budget. Shared by HTTP
 * (the plugin above) and WebSocket subscriptions (src/graphql/subscriptions/). Variables that do
 * not coerce are left to execution, which refuses them before any resolver runs.
 */
export function costRefusal({ schema, document, operation, operationName, variables }: CostedOperation, maxCost: number): GraphQLError | null {
  if (getVariableValues(schema, operation?.variableDefinitions ?? [], variables).errors) return null;
  let cost: number;
  try {
    cost = getComplexity({ schema, query: document, variables, operationName, estimators: [estimateCost] });
  } catch (error) {
    return refusal(error instanceof Error ? error.message : 'the operation cost cannot be computed', { limit: 'cost' });
  }
  if (cost > maxCost) return refusal(`the operation costs ${cost}; the budget is ${maxCost}`, { limit: 'cost', maximum: maxCost, actual: cost });
  return null;
}

function refusal(problem: string, details: Record<string, unknown>): GraphQLError {
  return new GraphQLError(problem, { originalError: new LedgerError('validation_error', problem, details), extensions: { http: { status: 400 } } });
}
