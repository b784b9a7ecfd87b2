// The console speaks only GraphQL, with the api_key the operator pasted (kept in sessionStorage,
// so it is gone when the tab closes).
const KEY = 'ledger.console.api_key';

export const apiKey = {
  get: () => sessionStorage.getItem(KEY) ?? '',
  set: (value) => sessionStorage.setItem(KEY, value),
  clear: () => sessionStorage.removeItem(KEY),
};

/** An error as the contract states it: code, message, details. */
export class ApiError extends Error {
  constructor(code, message, details) {
    super(message);
    this.code = code;
    this.details = details ?? {};
  }
}

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
    throw new ApiError(ext.code ?? 'internal_error', error.message, ext.details);
  }
  if (!res.ok) throw new ApiError(body.code ?? 'internal_error', body.message ?? `HTTP ${res.status}`, body.details);
  return body.data;
}
