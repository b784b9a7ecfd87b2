import { getOperationAST, GraphQLError, parse, specifiedRules, validate, type DocumentNode, type GraphQLFormattedError, type GraphQLSchema, type OperationDefinitionNode, type ValidationRule } from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import { LedgerError } from '../../domain/errors.js';
import { SubscriberTooSlowError } from '../../domain/events/event-feed.js';
import { formatError, isUnexpected } from '../errors.js';
import { costRefusal } from '../limits/cost.js';
import { limitRules, type GraphQLLimits } from '../limits/limits.js';
import { selectionRefusal } from '../limits/selection-limit.rule.js';

export interface CheckedOperation {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  operationName: string | undefined;
  variables: Record<string, unknown>;
}

/**
 * What Apollo does for an HTTP document, for a `subscribe` message: parse (token limit),
 * refuse an oversized expansion, validate (graphql's rules and ours: depth, aliases, operation type,
 * storable text), pick the operation, and cost it with its variables. Refusals are GraphQL errors carrying a contract code.
 */
export class OperationChecks {
  private readonly rules: ValidationRule[];

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly limits: GraphQLLimits,
  ) {
    this.rules = [...specifiedRules, ...limitRules(limits, 'websocket')];
  }

  check(payload: SubscribePayload): CheckedOperation | GraphQLError[] {
    let document: DocumentNode;
    try {
      document = parse(payload.query, { maxTokens: this.limits.maxTokens });
    } catch (error) {
      return [requestError(error, 'GRAPHQL_PARSE_FAILED')];
    }
    // before graphql's rules, some of which are quadratic in the expanded selections (selection-limit.rule.ts)
    const oversized = selectionRefusal(document, this.limits.maxSelections);
    if (oversized) return [oversized];
    const invalid = validate(this.schema, document, this.rules);
    if (invalid.length) return invalid.map((error) => requestError(error, 'GRAPHQL_VALIDATION_FAILED'));
    const operationName = payload.operationName ?? undefined;
    const operation = getOperationAST(document, operationName);
    if (!operation) {
      const problem = operationName ? `unknown operation named "${operationName}"` : 'the document must name the operation to run';
      return [requestError(new GraphQLError(problem), 'OPERATION_RESOLUTION_FAILURE')];
    }
    const variables = payload.variables ?? {};
    const tooCostly = costRefusal({ schema: this.schema, document, operation, operationName, variables }, this.limits.maxCost);
    return tooCostly ? [tooCostly] : { document, operation, operationName, variables };
  }
}

/**
 * An error as HTTP answers it (src/graphql/errors.ts), and whether it is a defect to log. In a
 * `next` payload, an error without a path is a request error (variables that do not coerce), as
 * graphql-js reports it before running any resolver; Apollo calls those BAD_USER_INPUT.
 */
export function formatSubscriptionError(error: GraphQLError, inResult: boolean): { formatted: GraphQLFormattedError; unexpected: boolean } {
  const requestLevel = inResult && !error.path && error.extensions?.code === undefined && !(error.originalError instanceof LedgerError);
  const formattable = requestLevel ? requestError(error, 'BAD_USER_INPUT') : error;
  // a dropped subscriber's feed ends with this error; its connection is closing with 1013 already
  const unexpected = !(error.originalError instanceof SubscriberTooSlowError) && isUnexpected(formattable);
  return { formatted: formatError(formattable.toJSON(), formattable), unexpected };
}

/** A parse or validation error reported like Apollo's: a contract code found inside, else Apollo's code (→ validation_error). */
function requestError(error: unknown, graphqlCode: string): GraphQLError {
  if (error instanceof GraphQLError && (error.originalError instanceof LedgerError || error.extensions?.code !== undefined)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const source = error instanceof GraphQLError ? error : undefined;
  return new GraphQLError(message, { nodes: source?.nodes, source: source?.source, positions: source?.positions, path: source?.path, originalError: source?.originalError ?? undefined, extensions: { code: graphqlCode } });
}
