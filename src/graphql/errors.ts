import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import { LedgerError, toLedgerError } from '../domain/errors.js';

/**
 * One adapter from domain errors to GraphQL: `extensions.code` is the contract code (§6) and
 * `extensions.details` the same details as REST. Apollo's own codes (parse and validation
 * failures) become `validation_error`; anything unexpected becomes `internal_error`.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const apolloCode = formatted.extensions?.code;
  let ledgerError: LedgerError;
  if (original instanceof LedgerError) ledgerError = original;
  else if (typeof apolloCode === 'string' && apolloCode !== 'INTERNAL_SERVER_ERROR') {
    ledgerError = new LedgerError('validation_error', formatted.message, { graphql_code: apolloCode });
  } else ledgerError = toLedgerError(original);
  return {
    message: ledgerError.code === 'internal_error' ? 'internal error' : formatted.message,
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: ledgerError.code, details: ledgerError.details },
  };
}
