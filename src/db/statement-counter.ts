import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Counts the SQL statements sent on behalf of one request: every pooled client's `query` is
 * wrapped once, and the count lands in the request's async context. Used by tests and by the
 * optional `x-sql-statements` response header.
 */
export interface StatementScope {
  /** Every statement sent for the request. */
  statements: number;
  /**
   * Those of them sent while the request was admitted (asAdmission: its key looked up, its call
   * counted). Those caches refresh on whichever request finds them stale, so this part of a
   * request's cost depends on the clock; what the request then did does not.
   */
  admission?: number;
  /** Set while the request is admitted. */
  admitting?: boolean;
}

const storage = new AsyncLocalStorage<StatementScope>();

export function withStatementScope<T>(scope: StatementScope, fn: () => T): T {
  return storage.run(scope, fn);
}

interface Queryable {
  query: (...args: any[]) => any;
}

const instrumented = new WeakSet<Queryable>();

/** Wraps a client's `query` once; called on every pool checkout (MikroORM may connect clients before we listen). */
export function instrumentClient(client: Queryable): void {
  if (instrumented.has(client)) return;
  instrumented.add(client);
  const original = client.query.bind(client);
  client.query = (...args: any[]) => {
    const scope = storage.getStore();
    if (scope) {
      scope.statements += 1;
      if (scope.admitting) scope.admission = (scope.admission ?? 0) + 1;
    }
    return original(...args);
  };
}

/** Runs `fn` as the admission of the caller's request (authentication, the call quota): its statements are counted apart as well. */
export async function asAdmission<T>(fn: () => Promise<T>): Promise<T> {
  const scope = storage.getStore();
  if (!scope) return fn();
  scope.admitting = true;
  try {
    return await fn();
  } finally {
    scope.admitting = false;
  }
}

/**
 * Whether the caller runs on behalf of a request: its statements go to the request connections,
 * which cut them after LEDGER_STATEMENT_TIMEOUT_MS; background work (outside any scope) is not cut.
 */
export function inRequestScope(): boolean {
  return storage.getStore() !== undefined;
}

/** The scope of the request the caller runs for (one object per request), or undefined outside any. */
export function requestScope(): StatementScope | undefined {
  return storage.getStore();
}

/** Runs `fn` outside any request's scope: background work a request only wakes (numbering events) is not the request's. */
export function outsideStatementScope<T>(fn: () => T): T {
  return storage.exit(fn);
}
