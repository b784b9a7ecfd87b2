import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/database.js';
import { Gatherer } from '../../src/db/gatherer.js';
import { CONNECTIONS_PER_REQUEST, limitConnectionsPerRequest, sharedAcrossRequests } from '../../src/db/request-connections.js';
import { requestScope, withStatementScope } from '../../src/db/statement-counter.js';
import { createLogger } from '../../src/logger.js';
import { createTestDatabase } from '../support/database.js';

/**
 * One request holds at most CONNECTIONS_PER_REQUEST (4) request connections at once, whichever
 * way it reaches them (CONTRACT §18): the ORM, raw queries, pool queries, transactions. Forced
 * with an advisory lock the test holds: every statement below waits for it, so the connections
 * a request has out are exactly the backends waiting for the lock.
 */
const LOCK = 36_036;
let url: string;
let db: Database;
let holder: pg.Client;
beforeAll(async () => {
  url = await createTestDatabase();
  db = await openDatabase(url, createLogger('silent'), 10);
  holder = new pg.Client({ connectionString: url });
  await holder.connect();
});
afterAll(async () => {
  await holder.end();
  await db.close();
});

const WAIT = `SELECT pg_advisory_xact_lock_shared(${LOCK})`;
const lockWaiters = async (): Promise<number> =>
  Number((await holder.query(`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'advisory'`)).rows[0].count);
const untilWaiters = async (count: number): Promise<void> => {
  while ((await lockWaiters()) < count);
};
const checkedOut = (pool: pg.Pool) => pool.totalCount - pool.idleCount;

/** Every way a request reaches a request connection, `n` times over, each statement waiting for LOCK. */
function everyWay(n: number): Promise<unknown>[] {
  const ways = [
    () => db.query(WAIT),
    () => db.pool.query(WAIT),
    () => db.transaction((client) => client.query(WAIT)),
    () => db.em().getConnection().execute(WAIT),
    () => db.rolledBack(() => db.query(WAIT)),
  ];
  return Array.from({ length: n }, (_, i) => ways[i % ways.length]());
}

describe('request connections: at most 4 per request at once', () => {
  it('holds a request’s fifth statement until one of its 4 connections is back, however it asks', async () => {
    await holder.query(`SELECT pg_advisory_lock(${LOCK})`);
    const first = withStatementScope({ statements: 0 }, () => Promise.all(everyWay(10)));
    await untilWaiters(CONNECTIONS_PER_REQUEST);
    expect(checkedOut(db.pool)).toBe(CONNECTIONS_PER_REQUEST);
    expect(db.pool.waitingCount).toBe(0); // the pool (10) has room: the request's own limit holds the rest
    // the limit is each request's: another one gets its own 4 at once
    const second = withStatementScope({ statements: 0 }, () => Promise.all(everyWay(6)));
    await untilWaiters(2 * CONNECTIONS_PER_REQUEST);
    expect(await lockWaiters()).toBe(2 * CONNECTIONS_PER_REQUEST);
    // work outside any request is not counted (and goes to the background pool)
    await expect(db.query('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
    await holder.query(`SELECT pg_advisory_unlock(${LOCK})`);
    await expect(first).resolves.toHaveLength(10);
    await expect(second).resolves.toHaveLength(6);
    expect(checkedOut(db.pool)).toBe(0);
  });

  it('takes none of a request’s permits for work shared between requests (a batch its dispatch chain happened to start)', async () => {
    await holder.query(`SELECT pg_advisory_lock(${LOCK})`);
    try {
      const scope = { statements: 0 };
      // request A holds its 4 connections, all waiting for the lock
      const a = withStatementScope(scope, () => Promise.all(everyWay(CONNECTIONS_PER_REQUEST)));
      await untilWaiters(CONNECTIONS_PER_REQUEST);
      // in A's context, a batch shared by many requests still gets a connection of the request pool
      const lookups = new Gatherer<number, number>(async (keys) => (await db.query<{ n: number }>('SELECT unnest($1::int[]) AS n', [keys])).map((row) => row.n), { inFlight: 1, max: 10 });
      const batched = withStatementScope(scope, () => Promise.all([lookups.load(1), lookups.load(2)]));
      await expect(batched).resolves.toEqual([1, 2]);
      await expect(withStatementScope(scope, () => sharedAcrossRequests(() => db.query<{ one: number }>('SELECT 1 AS one')))).resolves.toEqual([{ one: 1 }]);
      expect(await lockWaiters()).toBe(CONNECTIONS_PER_REQUEST); // A's own statements still wait
      await holder.query(`SELECT pg_advisory_unlock(${LOCK})`);
      await expect(a).resolves.toHaveLength(CONNECTIONS_PER_REQUEST);
    } finally {
      await holder.query(`SELECT pg_advisory_unlock_all()`);
    }
  });

  it('gives a connection’s permit back when its statement fails', async () => {
    const failing = withStatementScope({ statements: 0 }, () => Promise.allSettled(Array.from({ length: 12 }, () => db.query('SELECT 1 / 0'))));
    expect((await failing).every((outcome) => outcome.status === 'rejected')).toBe(true);
    // the same request can still have its 4
    await holder.query(`SELECT pg_advisory_lock(${LOCK})`);
    const scope = { statements: 0 };
    const after = withStatementScope(scope, () => Promise.all(everyWay(5)));
    await untilWaiters(CONNECTIONS_PER_REQUEST);
    expect(checkedOut(db.pool)).toBe(CONNECTIONS_PER_REQUEST);
    await holder.query(`SELECT pg_advisory_unlock(${LOCK})`);
    await expect(after).resolves.toHaveLength(5);
  });

  it('waits for a permit no longer than the pool waits for a connection, then fails as the pool does', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 300 });
    const request = {};
    limitConnectionsPerRequest(pool, () => request);
    await holder.query(`SELECT pg_advisory_lock(${LOCK})`);
    try {
      const held = Array.from({ length: CONNECTIONS_PER_REQUEST }, () => pool.query(WAIT));
      await untilWaiters(CONNECTIONS_PER_REQUEST);
      await expect(pool.query('SELECT 1')).rejects.toThrow('timeout exceeded when trying to connect');
      await holder.query(`SELECT pg_advisory_unlock(${LOCK})`);
      await Promise.all(held);
      // the wait that timed out took no permit with it: 4 are out at once again
      await holder.query(`SELECT pg_advisory_lock(${LOCK})`);
      const again = Array.from({ length: CONNECTIONS_PER_REQUEST }, () => pool.query(WAIT));
      await untilWaiters(CONNECTIONS_PER_REQUEST);
      expect(checkedOut(pool)).toBe(CONNECTIONS_PER_REQUEST);
      await holder.query(`SELECT pg_advisory_unlock(${LOCK})`);
      await Promise.all(again);
    } finally {
      await holder.query(`SELECT pg_advisory_unlock_all()`);
      await pool.end();
    }
  });

  it('counts the permit wait and the pool wait as one: the fifth statement of a request fails at the pool time-out from its start, not later', async () => {
    const LIMIT = 1_000;
    const pool = new pg.Pool({ connectionString: url, max: 5, connectionTimeoutMillis: LIMIT });
    limitConnectionsPerRequest(pool, requestScope);
    const scope = { statements: 0 };
    const inRequest = <T>(fn: () => T): T => withStatementScope(scope, fn);
    const other = 36_037;
    await holder.query(`SELECT pg_advisory_lock(${LOCK}), pg_advisory_lock(${other})`);
    const checkedOutHere: Promise<pg.PoolClient>[] = [];
    try {
      // the request's 4: three wait for LOCK, one for `other`
      const held = inRequest(() => [...Array.from({ length: 3 }, () => pool.query(WAIT)), pool.query(`SELECT pg_advisory_xact_lock_shared(${other})`)]);
      await untilWaiters(CONNECTIONS_PER_REQUEST);
      // outside the request: the pool's fifth connection held, and another caller queued for the next one
      checkedOutHere.push(pool.connect());
      await checkedOutHere[0];
      checkedOutHere.push(pool.connect());
      const started = Date.now();
      const fifth = inRequest(() => pool.query('SELECT 1')).then(() => 'answered', (error: Error) => error.message);
      await new Promise((resolve) => setTimeout(resolve, LIMIT * 0.6));
      // one of the request's statements ends: its permit goes to the fifth, its connection to the queued caller
      await holder.query(`SELECT pg_advisory_unlock(${other})`);
      expect(await fifth).toBe('timeout exceeded when trying to connect');
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(LIMIT - 50);
      expect(waited).toBeLessThan(LIMIT * 1.45); // one wait of LIMIT, not a permit's 0.6 then a pool's 1.0
      await holder.query(`SELECT pg_advisory_unlock(${LOCK})`);
      await Promise.all(held);
    } finally {
      await holder.query(`SELECT pg_advisory_unlock_all()`);
      for (const client of await Promise.all(checkedOutHere)) client.release();
      await pool.end();
    }
  });
});
