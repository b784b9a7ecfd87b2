import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Counts the SQL statements sent on behalf of one request: every pooled client's `query` is
 * wrapped once, and the count lands in the request's async context. Used by tests and by the
 * optional `x-sql-statements` response header.
 */
export interface StatementScope {
  statements: number;
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
    if (scope) scope.statements += 1;
    return original(...args);
  };
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
