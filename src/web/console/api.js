// The console's calls to the service: GraphQL for what it already offered (wallets, money moves,
// live subscriptions), REST for the rest, whose shapes the contract states. The api_key the
// operator pasted is kept in sessionStorage, so it is gone when the tab closes.
const KEY = 'ledger.console.api_key';

export const apiKey = {
  get: () => sessionStorage.getItem(KEY) ?? '',
  set: (/** @type {string} */ value) => sessionStorage.setItem(KEY, value),
  clear: () => sessionStorage.removeItem(KEY),
};

/** An error as the contract states it: code, message, details (and the HTTP status for REST). */
export class ApiError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {Record<string, unknown> | undefined} details
   * @param {number} status
   */
  constructor(code, message, details, status) {
    super(message);
    this.code = code;
    this.details = details ?? {};
    this.status = status;
  }

  /** The service has no such route (an endpoint another version adds): the view says so instead of failing. */
  get unavailable() {
    return this.status === 404 && /^no route for /.test(this.message);
  }
}

/**
 * A GraphQL query or mutation: its `data`, or an ApiError with the first error's code. `T` is the
 * shape the caller's selection asks for (the annotation at the call site: `@type {{ wallet: … }}`).
 * @template T
 * @param {string} query
 * @param {Record<string, unknown>} [variables]
 * @returns {Promise<T>}
 */
export async function gql(query, variables = {}) {
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', api_key: apiKey.get() },
    body: JSON.stringify({ query, variables }),
  });
  const body = await res.json().catch(() => ({}));
  if (body.errors?.length) {
    const [error] = body.errors;
    const ext = error.extensions ?? {};
    throw new ApiError(ext.code ?? 'internal_error', error.message, ext.details, res.status);
  }
  if (!res.ok) throw new ApiError(body.code ?? 'internal_error', body.message ?? `HTTP ${res.status}`, body.details, res.status);
  return body.data;
}

/**
 * A REST call: `query` drops empty values; the answer's JSON, or an ApiError with the contract's
 * body. `T` is the answer's shape, the call site's annotation (types.d.ts: `Answer<'listHolds'>`).
 * @template T
 * @param {'GET' | 'POST' | 'PUT' | 'DELETE'} method
 * @param {string} path
 * @param {{ query?: Record<string, unknown>, body?: unknown }} [options]
 * @returns {Promise<T>}
 */
export async function rest(method, path, { query, body } = {}) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null && value !== '') params.append(name, String(value));
  const url = params.size ? `${path}?${params}` : path;
  /** @type {Record<string, string>} */
  const headers = { api_key: apiKey.get() };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(json.code ?? 'internal_error', json.message ?? `HTTP ${res.status}`, json.details, res.status);
  return json;
}

/**
 * "code: message {details}", as an operator reads a refusal (or any other error a call threw).
 * @param {unknown} error
 */
export function errorText(error) {
  // a fetch that never reached the service throws a TypeError: no code, no details
  if (!(error instanceof ApiError)) return `error: ${error instanceof Error ? error.message : String(error)}`;
  const details = Object.keys(error.details).length ? ` ${JSON.stringify(error.details)}` : '';
  return `${error.code}: ${error.message}${details}`;
}
