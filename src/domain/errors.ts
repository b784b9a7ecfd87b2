/** The closed set of error codes (CONTRACT §6) and the HTTP status each one means. */
export const ERROR_STATUS = {
  validation_error: 400,
  invalid_json: 400,
  unauthorized: 401,
  quota_exceeded: 403,
  /** The caller's plan lacks the flag a feature needs (CONTRACT §23: advanced_analytics). */
  feature_unavailable: 403,
  not_found: 404,
  conflict: 409,
  insufficient_funds: 409,
  wallet_inactive: 409,
  wallet_not_empty: 409,
  asset_in_use: 409,
  hold_expired: 409,
  hold_not_pending: 409,
  /** A spending or earning limit would be passed (CONTRACT §19); details {limitId, remaining}. */
  limit_exceeded: 409,
  /** A posting's condition does not hold once it is done (CONTRACT §28); details {index, actual} (a batch: {index, condition, actual}). */
  condition_failed: 409,
  idempotency_in_progress: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reuse: 422,
  /** The daily call quota is spent (details {limit, retry_after}), or an owner's concurrent exports or verifies are at their cap (details {limit}). */
  rate_limited: 429,
  internal_error: 500,
  /**
   * A statement of the request ran past LEDGER_STATEMENT_TIMEOUT_MS and was cut, or no database
   * connection came free within 5 s (CONTRACT §18); nothing was posted.
   */
  timeout: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type ErrorDetails = Record<string, unknown>;

export class LedgerError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = 'LedgerError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): { code: ErrorCode; message: string; details: ErrorDetails } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

export const notFound = (resource: string, id?: unknown): LedgerError =>
  new LedgerError('not_found', `${resource} not found`, id === undefined ? {} : { resource, id });

export interface FieldProblem {
  field: string;
  problem: string;
}

/** `details.field` names the first offending field, `details.fields` lists them all. */
export const validationErrors = (problems: FieldProblem[]): LedgerError =>
  new LedgerError(
    'validation_error',
    problems.map((p) => `${p.field}: ${p.problem}`).join('; '),
    { field: problems[0]?.field, fields: problems },
  );

export const validationError = (field: string, problem: string): LedgerError => validationErrors([{ field, problem }]);

export const conflict = (message: string, details: ErrorDetails = {}): LedgerError =>
  new LedgerError('conflict', message, details);
