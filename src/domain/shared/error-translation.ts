import { ACQUIRE_TIMEOUT } from '../../db/acquire-timeout.js';
import { conflict, LedgerError, validationError } from '../errors.js';

/** The one translator of PostgreSQL errors: SQLSTATE codes become contract errors here and nowhere else. */
const pgCode = (error: unknown): string | undefined => (error as { code?: string } | null)?.code;

export const isUniqueViolation = (error: unknown): boolean => pgCode(error) === '23505';
export const isForeignKeyViolation = (error: unknown): boolean => pgCode(error) === '23503';
export const isDeadlock = (error: unknown): boolean => pgCode(error) === '40P01';
/**
 * A statement cut short: statement_timeout (LEDGER_STATEMENT_TIMEOUT_MS, lock waits included) or
 * a cancel (57014), or a lock wait past lock_timeout (55P03). PostgreSQL rolled its work back.
 */
export const isStatementCut = (error: unknown): boolean => pgCode(error) === '57014' || pgCode(error) === '55P03';

/** 503 `timeout` of a request that waited its 5 s for a database connection (or a long-read slot) and got none; nothing ran. */
export const acquireTimeout = (): LedgerError =>
  new LedgerError('timeout', 'no database connection came free within 5 s; nothing was done, the request may be sent again');

/** Anything that is not a LedgerError becomes an opaque internal_error (the cause is logged, never sent). */
export function toLedgerError(error: unknown): LedgerError {
  if (error instanceof LedgerError) return error;
  const pgError = translatePgError(error);
  return pgError ?? new LedgerError('internal_error', 'internal error');
}

/** PostgreSQL errors a valid request can still meet, translated where they arise. */
export function translatePgError(error: unknown): LedgerError | undefined {
  switch (pgCode(error)) {
    case '23505':
      return conflict('a resource with the same unique value already exists', {
        constraint: (error as { constraint?: string }).constraint,
      });
    case '22003':
      return validationError('body', 'number out of range');
    // Text PostgreSQL cannot store (NUL; \u0000 in jsonb) or JSON nested too deeply for it, from
    // inputs no body check sees (query strings, GraphQL literals).
    case '22021':
    case '22P05':
      return validationError('input', 'contains characters that cannot be stored (NUL or invalid Unicode)');
    case '54001':
      return validationError('input', 'is nested too deeply');
    case '57014':
    case '55P03':
      return new LedgerError('timeout', 'a database statement of this request ran past the statement time-out and was cut; nothing was posted, the request may be sent again');
    // no request connection came free in time (CONTRACT §18): nothing ran
    case ACQUIRE_TIMEOUT:
      return acquireTimeout();
    default:
      return undefined;
  }
}

/**
 * Whether a failed statement is known to have written nothing: PostgreSQL answered with an error
 * (a SQLSTATE) for it, which rolls its transaction back. Without one — the connection dropped —
 * or with a connection-class error (08…), the commit may have happened.
 */
export function rolledBack(error: unknown): boolean {
  const { code, severity } = (error ?? {}) as { code?: unknown; severity?: unknown };
  // `severity` marks an ErrorResponse from the server (a socket error such as EPIPE has a code too)
  return typeof severity === 'string' && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('08');
}
