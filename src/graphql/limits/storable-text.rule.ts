import { GraphQLError, type ASTVisitor, type ValidationContext, type ValidationRule } from 'graphql';
import { validationError } from '../../domain/errors.js';
import { isStorableText } from '../../domain/shared/storable-text.js';

/**
 * Refuses string literals that PostgreSQL cannot store as written (NUL, unpaired surrogates),
 * before execution. Variables are JSON and checked with every request body; literals are parsed
 * from the document, so they get the same check here.
 */
export const storableTextRule: ValidationRule = (context: ValidationContext): ASTVisitor => ({
  StringValue(node) {
    if (isStorableText(node.value)) return;
    const cause = validationError('input', 'must not contain NUL characters or unpaired surrogates');
    context.reportError(new GraphQLError(cause.message, { nodes: [node], originalError: cause }));
  },
});
