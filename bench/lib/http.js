// Small HTTP helpers for seeding and sampling (not used for the load itself: that is autocannon).

export class HttpFailure extends Error {
  constructor(method, url, status, text) {
    super(`${method} ${url} answered ${status}: ${text.slice(0, 500)}`);
    this.status = status;
  }
}

/** One JSON request; returns { status, json, headers }. Throws on a non-2xx status unless `allow`. */
export async function call(base, method, path, { body, headers = {}, allow = false } = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!allow && (response.status < 200 || response.status > 299)) throw new HttpFailure(method, path, response.status, text);
  return { status: response.status, json, text, headers: response.headers };
}

/** Runs `task(i)` for i in [0, count) with at most `concurrency` in flight; results in order. */
export async function parallel(count, concurrency, task) {
  const results = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}
