/** A minimal JSON client over real HTTP (global fetch, keep-alive), for suites that talk to any base URL. */
export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  body?: unknown;
  /** Sent as is (with `contentType`, default application/json). */
  raw?: string;
  /** null: no Content-Type header at all. */
  contentType?: string | null;
  headers?: Record<string, string>;
  idempotencyKey?: string;
}

export class Api {
  constructor(
    readonly baseUrl: string,
    readonly key?: string,
  ) {}

  as(key: string): Api {
    return new Api(this.baseUrl, key);
  }

  at(baseUrl: string): Api {
    return new Api(baseUrl, this.key);
  }

  async call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.key !== undefined) headers.api_key = this.key;
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (body !== undefined && options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
    const response = await fetch(this.baseUrl + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = { unparsable: text.slice(0, 500) };
      }
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  /** The fixtures' request shape (test/support/fixtures.ts): as the owner of `key`, or with this client's key. */
  request<T = any>(method: string, path: string, options: { key?: string; body?: unknown } = {}) {
    return (options.key === undefined ? this : this.as(options.key)).call<T>(method, path, { body: options.body });
  }

  get<T = any>(path: string, options?: CallOptions) {
    return this.call<T>('GET', path, options);
  }

  post<T = any>(path: string, body: unknown, options: CallOptions = {}) {
    return this.call<T>('POST', path, { ...options, body });
  }

  put<T = any>(path: string, body: unknown, options: CallOptions = {}) {
    return this.call<T>('PUT', path, { ...options, body });
  }

  delete<T = any>(path: string, options?: CallOptions) {
    return this.call<T>('DELETE', path, options);
  }

  graphql<T = any>(query: string, variables?: Record<string, unknown>): Promise<Reply<T>> {
    return this.call<T>('POST', '/graphql', { body: { query, variables } });
  }
}

/** Issues a key through the real admin endpoint. */
export async function issueKey(baseUrl: string, adminToken: string, owner: string, plan = 'pro'): Promise<string> {
  const res = await new Api(baseUrl).post('/admin/api-keys', { owner, plan_code: plan }, { headers: { admin_token: adminToken } });
  if (res.status !== 201) throw new Error(`key issuance failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.api_key as string;
}

/** Runs `worker(i)` for i in [0, count) with at most `concurrency` in flight. */
export async function pool<T>(count: number, concurrency: number, worker: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (next < count) {
      const i = next++;
      results[i] = await worker(i);
    }
  });
  await Promise.all(lanes);
  return results;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same workload on every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)];
