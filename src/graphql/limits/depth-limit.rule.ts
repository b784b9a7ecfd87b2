import { GraphQLError, type ASTVisitor, type ValidationContext, type ValidationRule } from 'graphql';
import { LedgerError } from '../../domain/errors.js';
import { DocumentShape } from './document-shape.js';

/**
 * Refuses an operation whose fields nest deeper than `maxDepth`. Fragment spreads count at the
 * depth where they are spread, each fragment measured once per document (document-shape.ts).
 * Introspection (`__schema`, `__type`) is not counted: it never reaches the database, and the
 * standard introspection query is 15 deep.
 */
export function depthLimitRule(maxDepth: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const depth = DocumentShape.of(context.getDocument()).depth(operation.selectionSet);
      if (depth > maxDepth) {
        const problem = `the operation is ${depth} levels deep; at most ${maxDepth} are allowed`;
        const cause = new LedgerError('validation_error', problem, { limit: 'depth', maximum: maxDepth, actual: depth });
        context.reportError(new GraphQLError(problem, { nodes: [operation], originalError: cause }));
      }
    },
  });
}
