import { GraphQLError, Kind, type ASTVisitor, type SelectionSetNode, type ValidationContext, type ValidationRule } from 'graphql';
import { LedgerError } from '../../domain/errors.js';

/**
 * Refuses an operation whose fields nest deeper than `maxDepth`. Fragment spreads count at the
 * depth where they are spread; a fragment cycle is reported by graphql's own rules, so a
 * fragment already on the path is not followed again. Introspection (`__schema`, `__type`) is
 * not counted: it never reaches the database, and the standard introspection query is 15 deep.
 */
export function depthLimitRule(maxDepth: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const depth = selectionDepth(context, operation.selectionSet, new Set());
      if (depth > maxDepth) {
        const problem = `the operation is ${depth} levels deep; at most ${maxDepth} are allowed`;
        const cause = new LedgerError('validation_error', problem, { limit: 'depth', maximum: maxDepth, actual: depth });
        context.reportError(new GraphQLError(problem, { nodes: [operation], originalError: cause }));
      }
    },
  });
}

function selectionDepth(context: ValidationContext, selectionSet: SelectionSetNode, path: Set<string>): number {
  let deepest = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value.startsWith('__')) continue;
      deepest = Math.max(deepest, 1 + (selection.selectionSet ? selectionDepth(context, selection.selectionSet, path) : 0));
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      deepest = Math.max(deepest, selectionDepth(context, selection.selectionSet, path));
    } else {
      const name = selection.name.value;
      const fragment = context.getFragment(name);
      if (!fragment || path.has(name)) continue;
      path.add(name);
      deepest = Math.max(deepest, selectionDepth(context, fragment.selectionSet, path));
      path.delete(name);
    }
  }
  return deepest;
}
