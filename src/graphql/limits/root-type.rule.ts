import { GraphQLError, type ASTVisitor, type ValidationContext, type ValidationRule } from 'graphql';
import { LedgerError } from '../../domain/errors.js';

/**
 * Refuses an operation whose root type the schema lacks (the ledger has no subscriptions).
 * graphql-js only notices at execution, with an error Apollo reports as internal.
 */
export const rootTypeRule: ValidationRule = (context: ValidationContext): ASTVisitor => ({
  OperationDefinition(operation) {
    if (context.getSchema().getRootType(operation.operation)) return;
    const cause = new LedgerError('validation_error', `this schema has no ${operation.operation} operations`, { operation: operation.operation });
    context.reportError(new GraphQLError(cause.message, { nodes: [operation], originalError: cause }));
  },
});
