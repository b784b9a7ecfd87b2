import type pg from 'pg';

type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/** What a `connect()` of the request pool rejects with once the database is closing. */
export class DatabaseClosingError extends Error {
  constructor() {
    super('the database is closing: no new work on its request connections');
  }
}

/**
 * From the returned function's call on, every client the pool hands out is returned to it at once
 * and its `connect()` rejects (DatabaseClosingError).
 *
 * Why: MikroORM's Kysely (0.29) PostgresDriver reads its pool field again once `pool.connect()`
 * has resolved (to build its connection object), and its destroy() — MikroORM's close() — clears
 * that field before it calls `pool.end()`. A connection whose handshake ends after the close began
 * (the pool's first, opened lazily, or one more for a burst) is handed to a driver that then throws
 * a TypeError without releasing it, and `pool.end()` waits for it forever: the shutdown hang of
 * docs/decisions/ci-hang-shutdown.md. Refusing here keeps the driver from ever touching its pool
 * after the close began: this function is called before the close, and the driver's continuation
 * after a `connect()` that resolved earlier runs within microtasks, before the close's first I/O.
 */
export function refuseConnectionsOnClose(pool: pg.Pool): () => void {
  let closing = false;
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const guarded = async (): Promise<pg.PoolClient> => {
    const client = await connect();
    if (!closing) return client;
    client.release();
    throw new DatabaseClosingError();
  };
  // pg-pool's own query() calls connect with a callback; Kysely and our code call it without
  pool.connect = ((callback?: ConnectCallback) => {
    const result = guarded();
    if (!callback) return result;
    result.then(
      (client) => callback(undefined, client, (release) => client.release(release as Error | boolean | undefined)),
      (error: Error) => callback(error, undefined, () => undefined),
    );
    return undefined;
  }) as typeof pool.connect;
  return () => {
    closing = true;
  };
}
