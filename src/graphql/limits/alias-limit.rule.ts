import { GraphQLError, type ASTVisitor, type ValidationContext, type ValidationRule } from 'graphql';
import { LedgerError } from '../../domain/errors.js';

/** Refuses a document with more than `maxAliases` aliased fields, counted across all its operations and fragments. */
export function aliasLimitRule(maxAliases: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    let aliases = 0;
    return {
      Field(field) {
        if (field.alias) aliases += 1;
      },
      Document: {
        leave(document) {
          if (aliases <= maxAliases) return;
          const problem = `the document has ${aliases} aliases; at most ${maxAliases} are allowed`;
          const cause = new LedgerError('validation_error', problem, { limit: 'aliases', maximum: maxAliases, actual: aliases });
          context.reportError(new GraphQLError(problem, { nodes: [document], originalError: cause }));
        },
      },
    };
  };
}
