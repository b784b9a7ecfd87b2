import pg from 'pg';

/** Another session, for tests that hold locks the service must wait on. */
export interface Locker {
  pid: number;
  query<T extends pg.QueryResultRow = any>(text: string, params?: unknown[]): Promise<T[]>;
  end(): Promise<void>;
}

export async function openLocker(databaseUrl: string): Promise<Locker> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  return {
    pid: rows[0].pid,
    query: async (text, params) => (await client.query(text, params)).rows,
    end: () => client.end(),
  };
}

/**
 * The backend that waits on a lock `locker` holds, once one does (polled: PostgreSQL announces
 * no lock wait); for a test to cut it or to watch it go on waiting.
 */
export async function blockedBy(locker: Locker, timeoutMs = 10_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await freshStatistics(locker);
    const rows = await locker.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))', [locker.pid]);
    if (rows.length > 0) return rows[0].pid;
    if (Date.now() > deadline) throw new Error(`no backend waited on a lock of ${locker.pid} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Drops the locker's snapshot of pg_stat_activity. A transaction reads the statistics views from
 * one snapshot taken at its first look (stats_fetch_consistency), and a locker polls from inside
 * the transaction that holds its lock: without this, a backend that connected after the first
 * poll is never seen (the pool of an instance often opens one just then).
 */
export async function freshStatistics(locker: Locker): Promise<void> {
  await locker.query('SELECT pg_stat_clear_snapshot()');
}
