import { GraphQLError, type ASTVisitor, type OperationTypeNode, type ValidationContext, type ValidationRule } from 'graphql';
import { LedgerError } from '../../domain/errors.js';

/** Which operation types a transport serves: queries and mutations over HTTP, subscriptions over WebSocket. */
export type Transport = 'http' | 'websocket';

const SERVED: Record<Transport, readonly OperationTypeNode[]> = {
  http: ['query', 'mutation'] as OperationTypeNode[],
  websocket: ['subscription'] as OperationTypeNode[],
};

const ELSEWHERE: Record<Transport, string> = {
  http: 'subscriptions are served over WebSocket on /graphql (protocol graphql-transport-ws)',
  websocket: 'queries and mutations are served over HTTP: POST /graphql',
};

/**
 * Refuses an operation whose root type the schema lacks, or that this transport does not serve
 * (a subscription over HTTP, a query over the WebSocket). graphql-js only notices a missing root
 * type at execution, with an error Apollo reports as internal.
 */
export function operationTypeRule(transport: Transport): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      let cause: LedgerError | undefined;
      if (!context.getSchema().getRootType(operation.operation)) {
        cause = new LedgerError('validation_error', `this schema has no ${operation.operation} operations`, { operation: operation.operation });
      } else if (!SERVED[transport].includes(operation.operation)) {
        cause = new LedgerError('validation_error', ELSEWHERE[transport], { operation: operation.operation });
      }
      if (cause) context.reportError(new GraphQLError(cause.message, { nodes: [operation], originalError: cause }));
    },
  });
}
