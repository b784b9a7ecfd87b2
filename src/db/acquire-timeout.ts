import type pg from 'pg';

/**
 * How long a request waits for a request connection (CONTRACT §18: at most 5 s, then 503
 * `timeout`): pg-pool's connectionTimeoutMillis, which bounds both the wait behind a full pool and
 * the opening of a new connection. Without it a waiter queued behind connections that are never
 * given back waits for ever (issue 36).
 */
export const ACQUIRE_TIMEOUT_MS = 5_000;

/** The `code` of the error a request connection's wait past ACQUIRE_TIMEOUT_MS rejects with (pg-pool's own has none). */
export const ACQUIRE_TIMEOUT = 'LEDGER_ACQUIRE_TIMEOUT';

/** pg-pool's messages for a wait past connectionTimeoutMillis: behind a full pool, and opening a connection. */
const POOL_TIMEOUT_MESSAGES = new Set(['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout']);

/**
 * Gives pg-pool's time-out errors a code of their own, on every path that takes a connection: the
 * ORM's (through kysely, which awaits `connect()`), `pool.query` (which calls `this.connect` with
 * a callback) and ours. MikroORM copies an error's own properties into its DriverException, so
 * the code survives its wrapping and src/domain/shared/error-translation.ts finds it.
 */
export function tagAcquireTimeouts(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as Connect;
  pool.connect = ((callback?: Connected) => {
    if (callback) return connect((error, client, done) => callback(tagged(error), client, done));
    return connect()!.catch((error: Error) => Promise.reject(tagged(error)));
  }) as pg.Pool['connect'];
}

type Connected = (error: Error | undefined, client?: pg.PoolClient, done?: (release?: unknown) => void) => void;
type Connect = (callback?: Connected) => Promise<pg.PoolClient> | undefined;

function tagged(error: Error | undefined): Error | undefined {
  if (error && POOL_TIMEOUT_MESSAGES.has(error.message) && !(error as { code?: unknown }).code) Object.assign(error, { code: ACQUIRE_TIMEOUT });
  return error;
}
