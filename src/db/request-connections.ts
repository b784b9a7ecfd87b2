import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';

/**
 * How many request connections one request may hold at once (CONTRACT §18, "Expensive fields cost
 * what they cost"). A GraphQL document resolves its fields in parallel: 30 aliased searches were
 * 30 statements on 30 connections at once, the whole pool of one instance taken by one call.
 */
export const CONNECTIONS_PER_REQUEST = 4;

/**
 * Work one request starts for many (a group commit's posting batch, a batch of posting lookups):
 * it runs in the async context of whichever request happened to start its dispatch chain, but it
 * is not that request's, so it takes none of its permits — else one request holding its 4 would
 * hold up every other owner's postings batched behind it (found in review).
 */
const shared = new AsyncLocalStorage<true>();

/** A wait that began before the checkout (a long read's wait for its slot): the first checkout in its scope ends with it. */
const earlierWait = new AsyncLocalStorage<{ deadline: number; spent: boolean }>();

/**
 * Runs `fn` so that its first request connection comes by `deadline` or fails as the pool's
 * time-out does: a wait that began before `fn` (an export's or a verify's wait for a long-read
 * slot) and the wait for its connection are one wait, at most 5 s in all (CONTRACT §18), not
 * 5 s each. Only the first checkout: a verify's later chunks each wait as any statement does.
 */
export function firstConnectionBy<T>(deadline: number, fn: () => T): T {
  return earlierWait.run({ deadline, spent: false }, fn);
}

/** Runs `fn` as work shared between requests: its connections take no request's permits (they still come from the request pool). */
export function sharedAcrossRequests<T>(fn: () => T): T {
  return shared.run(true, fn);
}

/** A request's permits: at most `limit` connections out at once, the next ones waiting in order. */
class Permits {
  private out = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /**
   * Resolves once a permit is the caller's. `cancel` gives up the wait (the time-out below): true
   * when it did, false when the permit was granted already (then `taken` has resolved).
   */
  take(): { immediate: boolean; taken: Promise<void>; cancel: () => boolean } {
    if (this.out < this.limit) {
      this.out += 1;
      return { immediate: true, taken: Promise.resolve(), cancel: () => false };
    }
    let grant!: () => void;
    const taken = new Promise<void>((resolve) => (grant = resolve));
    this.waiting.push(grant);
    return {
      immediate: false,
      taken,
      cancel: () => {
        const at = this.waiting.indexOf(grant);
        if (at >= 0) this.waiting.splice(at, 1);
        return at >= 0;
      },
    };
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next(); // the permit passes straight to the next waiter: `out` is unchanged
    else this.out -= 1;
  }
}

type Connect = pg.Pool['connect'];

/**
 * Makes every checkout of `pool` made on behalf of a request (`requestOf()`: the request's scope
 * object, undefined outside any request) take one of that request's CONNECTIONS_PER_REQUEST
 * permits first, and give it back when the connection is released. It is the pool's own
 * `connect` that is replaced, so every way to a request connection passes here: `pool.query`
 * (pg-pool's query checks out through `this.connect`), the ORM's entity managers (kysely's
 * driver calls `pool.connect()`), `Database.query`, `transaction` and `rolledBack`, the SQL plans
 * of the fast path and of Apollo's path, graphql-jit's resolvers and DataLoaders alike, and
 * exports' cursors. Nothing has to remember to ask.
 *
 * A permit is waited for no longer than the pool would wait for a connection
 * (`connectionTimeoutMillis`, when set), and then fails as pg-pool's own wait does, so the request
 * is answered as any request that found no connection in time.
 */
export function limitConnectionsPerRequest(pool: pg.Pool, requestOf: () => object | undefined, perRequest = CONNECTIONS_PER_REQUEST): void {
  const connect: Connect = pool.connect.bind(pool);
  const permitsOf = new WeakMap<object, Permits>();
  const waitLimit = (pool as unknown as { options: { connectionTimeoutMillis?: number } }).options.connectionTimeoutMillis;

  async function checkout(permits: Permits): Promise<pg.PoolClient> {
    // one wait for one connection, the permit's and the pool's together: at most waitLimit in all.
    // The usual case, a permit free at once, arms no timer: the pool's own time-out is the whole wait.
    let deadline = waitLimit ? Date.now() + waitLimit : undefined;
    const earlier = earlierWait.getStore();
    const continues = earlier !== undefined && !earlier.spent;
    if (continues) {
      earlier.spent = true;
      deadline = Math.min(deadline ?? Infinity, earlier.deadline);
    }
    const waited = await permitted(permits, deadline === undefined ? undefined : Math.max(1, deadline - Date.now()));
    let client: pg.PoolClient;
    try {
      client = await (deadline === undefined || !(waited || continues) ? connect() : connectBy(connect, deadline));
    } catch (error) {
      permits.give();
      throw error;
    }
    // pg-pool sets a fresh `release` on every checkout, so this wrapper lives as long as this checkout
    const release = client.release;
    let given = false;
    client.release = (error?: Error | boolean) => {
      if (!given) {
        given = true;
        permits.give();
      }
      return release.call(client, error);
    };
    return client;
  }

  pool.connect = ((callback?: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: Error | boolean) => void) => void) => {
    const request = requestOf();
    if (request === undefined || shared.getStore()) return callback ? connect(callback) : connect();
    let permits = permitsOf.get(request);
    if (!permits) permitsOf.set(request, (permits = new Permits(perRequest)));
    const checkedOut = checkout(permits);
    if (!callback) return checkedOut;
    // pg-pool's `query` asks with a callback and releases through the client it is given
    checkedOut.then(
      (client) => callback(undefined, client, client.release),
      (error: Error) => callback(error, undefined, () => undefined),
    );
    return undefined;
  }) as Connect;
}

/**
 * The pool's connection, or pg-pool's own time-out error at `deadline` (what the permit wait left
 * of the request's one wait). A connection the pool hands over after that goes straight back.
 */
function connectBy(connect: Connect, deadline: number): Promise<pg.PoolClient> {
  const pending = connect() as Promise<pg.PoolClient>;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout exceeded when trying to connect')), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([pending, late]).then(
    (client) => {
      clearTimeout(timer);
      return client;
    },
    (error: unknown) => {
      clearTimeout(timer);
      pending.then((client) => client.release(), () => undefined);
      throw error;
    },
  );
}

/** Takes a permit, waiting at most `waitLimit`; answers whether it had to wait. */
async function permitted(permits: Permits, waitLimit: number | undefined): Promise<boolean> {
  const { immediate, taken, cancel } = permits.take();
  if (immediate) return false;
  if (!waitLimit) return taken.then(() => true);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      if (cancel()) reject(new Error('timeout exceeded when trying to connect'));
    }, waitLimit);
  });
  try {
    await Promise.race([taken, late]);
  } finally {
    clearTimeout(timer);
  }
  return true;
}
