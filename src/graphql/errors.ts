import type { GraphQLFormattedError } from 'graphql';
import { LedgerError } from '../domain/errors.js';
import { toLedgerError } from '../domain/shared/error-translation.js';

/**
 * One adapter from domain errors to GraphQL: `extensions.code` is the contract code (§6) and
 * `extensions.details` the same details as REST. A LedgerError is found wherever GraphQL wrapped
 * it (resolver errors, the limit rules' validation errors); Apollo's own codes (parse and
 * validation failures, bad variables) become `validation_error`; anything else `internal_error`.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const apolloCode = formatted.extensions?.code;
  let ledgerError = findLedgerError(error);
  if (!ledgerError) {
    ledgerError =
      typeof apolloCode === 'string' && apolloCode !== 'INTERNAL_SERVER_ERROR'
        ? new LedgerError('validation_error', formatted.message, { graphql_code: apolloCode })
        : toLedgerError(innermost(error));
  }
  return {
    message: ledgerError.code === 'internal_error' ? 'internal error' : ledgerError.message,
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: ledgerError.code, details: ledgerError.details },
  };
}

/**
 * A request to /graphql refused before GraphQL ran, as a GraphQL response (CONTRACT §18): a
 * client behind a federation gateway then sees `extensions.code` `unauthorized`, where the
 * common error body would reach it only as the gateway's masked error. Status 401 is kept (a
 * direct client still reads it); other refusals keep the common body.
 */
export function graphqlRefusal(error: LedgerError): { status: number; body: unknown } | undefined {
  if (error.code !== 'unauthorized') return undefined;
  return { status: error.status, body: { errors: [{ message: error.message, extensions: { code: error.code, details: error.details } }] } };
}

function findLedgerError(error: unknown): LedgerError | undefined {
  for (let current = error, hops = 0; current && hops < 5; hops += 1) {
    if (current instanceof LedgerError) return current;
    current = (current as { originalError?: unknown }).originalError;
  }
  return undefined;
}

function innermost(error: unknown): unknown {
  let current = error;
  for (let hops = 0; hops < 5 && (current as { originalError?: unknown })?.originalError; hops += 1) {
    current = (current as { originalError: unknown }).originalError;
  }
  return current;
}

/** An error that is neither a domain refusal nor a GraphQL request error: a defect, to be logged. */
export function isUnexpected(error: { readonly extensions?: { readonly [key: string]: unknown }; readonly originalError?: unknown }): boolean {
  if (findLedgerError(error)) return false;
  const code = error.extensions?.code;
  if (typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR') return false;
  return toLedgerError(innermost(error)).code === 'internal_error';
}
