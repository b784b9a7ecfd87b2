import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

/** These steps take milliseconds on a quiet machine; one still running after this long gets a dump of what the cluster is doing. */
export const STALL_MS = 10_000;

/**
 * Runs `step`; when it has not settled after STALL_MS, writes to stderr what every backend of
 * the cluster of `url` is doing (pg_stat_activity), the locks not granted and those held by
 * the sessions they wait on (pg_locks), and the PostgreSQL processes' titles from /proc (which
 * still answer when a new connection would hang too). The step is neither cut nor retried: the
 * dump is evidence for the test's own time-out.
 */
export async function watchStall<T>(label: string, url: string, step: () => Promise<T>): Promise<T> {
  const timer = setTimeout(() => void dumpCluster(label, adminUrl(url)), STALL_MS);
  try {
    return await step();
  } finally {
    clearTimeout(timer);
  }
}

/** The same cluster's `postgres` database: the step's own database may be the one that is stuck. */
function adminUrl(url: string): string {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  return admin.toString();
}

async function dumpCluster(label: string, adminUrl: string): Promise<void> {
  const lines = [`--- ${label}: still waiting after ${STALL_MS} ms ---`, 'processes of the cluster:', ...clusterTitles(Number(new URL(adminUrl).port))];
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000, application_name: 'stall-dump' });
  try {
    await client.connect();
    const activity = await client.query(
      `SELECT pid, datname, application_name, backend_type, state, wait_event_type, wait_event,
              now() - xact_start AS xact_age, now() - state_change AS state_age, pg_blocking_pids(pid) AS blocked_by, left(query, 200) AS query
         FROM pg_stat_activity ORDER BY pid`,
    );
    const locks = await client.query(
      `SELECT l.pid, l.locktype, l.database, d.datname AS object_database, l.relation::regclass AS relation,
              l.classid, l.objid, l.mode, l.granted
         FROM pg_locks l LEFT JOIN pg_database d ON l.locktype = 'object' AND l.classid = 'pg_database'::regclass AND d.oid = l.objid
        WHERE NOT l.granted OR l.locktype IN ('object', 'advisory')
           OR l.pid IN (SELECT unnest(pg_blocking_pids(pid)) FROM pg_stat_activity)
        ORDER BY l.pid`,
    );
    lines.push('pg_stat_activity:', ...activity.rows.map((row) => JSON.stringify(row)));
    lines.push('pg_locks (waiting, on databases, advisory, and of blockers):', ...locks.rows.map((row) => JSON.stringify(row)));
  } catch (error) {
    lines.push(`the dump's own connection failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await client.end().catch(() => undefined);
  }
  process.stderr.write(`${lines.join('\n')}\n`);
}

/**
 * Titles of the cluster's processes (`postgres: user db host STATEMENT waiting`), read from /proc:
 * the postmaster listening on `port` and its children. Other clusters on the machine are left out.
 */
function clusterTitles(port: number): string[] {
  const processes = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const ppid = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
        return { pid, ppid, title: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+/g, ' ').trim() };
      } catch {
        return undefined; // gone meanwhile
      }
    })
    .filter((process) => process !== undefined);
  const postmaster = processes.find((process) => process.title.includes('postgres') && process.title.includes(` -p ${port} `));
  if (!postmaster) return [`(no postmaster with -p ${port} found in /proc)`];
  return [postmaster, ...processes.filter((process) => process.ppid === postmaster.pid)].map((process) => `${process.pid} ${process.title}`);
}
