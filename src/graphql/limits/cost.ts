import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, getOperationAST, getVariableValues, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { LedgerError } from '../../domain/errors.js';
import { CostWalk } from './cost-walk.js';

/**
 * Computes the cost once the operation and its variables are known (validation rules do not see
 * variables) and refuses it, before execution, when it is over `maxCost`. The cost model is in
 * cost-walk.ts.
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

/** The operation's cost, or null when its variables do not coerce (execution refuses those). */
export function operationCost({ schema, document, operation, operationName, variables }: CostedOperation): number | null {
  const chosen = operation ?? getOperationAST(document, operationName);
  if (!chosen) return null;
  const coerced = getVariableValues(schema, chosen.variableDefinitions ?? [], variables);
  if (coerced.errors) return null;
  return new CostWalk(schema, document, coerced.coerced).operation(chosen);
}

/**
 * The refusal of an operation over `maxCost`, or null when it is within budget (or left to
 * execution: variables that do not coerce, no operation to run). Shared by HTTP (the plugin
 * above) and WebSocket subscriptions (src/graphql/subscriptions/).
 */
export function costRefusal(costed: CostedOperation, maxCost: number): GraphQLError | null {
  let cost: number | null;
  try {
    cost = operationCost(costed);
  } catch (error) {
    return refusal(error instanceof Error ? error.message : 'the operation cost cannot be computed', { limit: 'cost' });
  }
  if (cost !== null && cost > maxCost) return refusal(`the operation costs ${cost}; the budget is ${maxCost}`, { limit: 'cost', maximum: maxCost, actual: cost });
  return null;
}

function refusal(problem: string, details: Record<string, unknown>): GraphQLError {
  return new GraphQLError(problem, { originalError: new LedgerError('validation_error', problem, details), extensions: { http: { status: 400 } } });
}
