// Test-only PostgreSQL servers outside the embedded one (docs/decisions/citus-lane.md): a plain
// PostgreSQL 15 cluster (Debian's) and a Citus cluster — a coordinator and workers on loopback, each
// its own data directory and free port. Plain ESM: jest's global set-up loads it outside its
// transform, and scripts/ use it too.
//
// Every cluster has the embedded one's user (`ledger`, so test/support/database.ts's URLs serve
// every lane) and trusts loopback connections: Citus's nodes connect to each other as that user, and
// a password would need a .pgpass for the server's OS user. Test clusters only, on 127.0.0.1.
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const USER = 'ledger';
const OS_USER = 'postgres';

/** The URL of `database` on a test server's `port` (the embedded cluster's form: embeddedUrl). */
export function serverUrl(port, database = 'postgres') {
  return `postgres://${USER}:${USER}@127.0.0.1:${port}/${database}`;
}

/**
 * The ids the servers run as: the current user's, or as root (PostgreSQL refuses root; CI runs as
 * root) the `postgres` user's, created when missing.
 */
export function serverIds() {
  if (userInfo().uid !== 0) return {};
  try {
    execFileSync('id', ['-u', OS_USER], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--home-dir', '/var/lib/postgresql', '--shell', '/bin/bash', OS_USER]);
  }
  return { uid: Number(execFileSync('id', ['-u', OS_USER], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', OS_USER], { encoding: 'utf8' })) };
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A directory of its own under the system's temporary directory, reachable by the servers' user. */
export function serverBaseDir(prefix) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

/**
 * initdb and start one cluster of `pgBin`'s PostgreSQL in `<baseDir>/<name>`; `settings` are
 * postgresql.conf's lines beside the embedded cluster's (see src/db/embedded-postgres.ts).
 * Returns { name, port, dataDir, url(database), query(database, sql), stop() }.
 */
export async function startServer({ pgBin, baseDir, name, settings = {}, ids = serverIds() }) {
  const dataDir = path.join(baseDir, name);
  mkdirSync(dataDir, { mode: 0o700 });
  if (ids.uid !== undefined) chownSync(dataDir, ids.uid, ids.gid);
  await run(path.join(pgBin, 'initdb'), ['-D', dataDir, `--username=${USER}`, '--auth=trust', '--encoding=UTF8', '--lc-messages=C', '--no-sync'], ids);
  const port = await freePort();
  const conf = {
    port,
    listen_addresses: "'127.0.0.1'",
    unix_socket_directories: `'${dataDir}'`,
    max_connections: 300,
    shared_buffers: "'256MB'",
    shared_preload_libraries: "'pg_stat_statements'",
    'pg_stat_statements.track': "'all'",
    log_min_messages: 'warning',
    // test clusters are thrown away: what a crash would lose does not matter, the time does
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    ...settings,
  };
  const lines = Object.entries(conf).map(([key, value]) => `${key} = ${value}`);
  writeFileSync(path.join(dataDir, 'postgresql.auto.conf'), `${lines.join('\n')}\n`);
  if (ids.uid !== undefined) chownSync(path.join(dataDir, 'postgresql.auto.conf'), ids.uid, ids.gid);
  const log = path.join(baseDir, `${name}.log`);
  writeFileSync(log, '');
  if (ids.uid !== undefined) chownSync(log, ids.uid, ids.gid);
  await run(path.join(pgBin, 'pg_ctl'), ['-D', dataDir, '-l', log, '-w', '-t', '120', 'start'], ids, log);
  return {
    name,
    port,
    dataDir,
    url: (database) => serverUrl(port, database),
    query: (database, sql, params) => query(serverUrl(port, database), sql, params),
    stop: () => run(path.join(pgBin, 'pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', '-t', '120', 'stop'], ids, log),
  };
}

/** A plain PostgreSQL cluster of `pgBin` (PostgreSQL 15 for the pg15 lane) in a new temporary directory. */
export async function startPlainServer({ pgBin }) {
  const baseDir = serverBaseDir('ledger-pg-');
  const server = await startServer({ pgBin, baseDir, name: 'pg' });
  return {
    ...server,
    baseDir,
    async stop() {
      await server.stop();
      rmSync(baseDir, { recursive: true, force: true });
    },
  };
}

/**
 * Settings of every Citus node. Each database with Citus runs its own maintenance daemon (a
 * background worker) on every node, so the default max_worker_processes (8) runs out after a few
 * databases: a lane that makes a database per test file needs room for as many as exist at once.
 */
export const CITUS_SETTINGS = {
  shared_preload_libraries: "'citus,pg_stat_statements'",
  max_worker_processes: 256,
  max_connections: 600,
  // the nodes connect to each other on loopback only: no TLS (Citus asks for it by default, and
  // libpq would look for client certificates in the home directory of whoever started the tests)
  'citus.node_conninfo': "'sslmode=disable'",
};

/**
 * A Citus cluster: a coordinator and `workers` workers, started at once, each in its own data
 * directory under a new temporary directory. Databases are made with `createDatabase`.
 */
export async function startCitusCluster({ pgBin, workers = 2, settings = {} }) {
  const baseDir = serverBaseDir('ledger-citus-');
  const ids = serverIds();
  const names = ['coordinator', ...Array.from({ length: workers }, (_, i) => `worker${i + 1}`)];
  const started = await Promise.allSettled(names.map((name) => startServer({ pgBin, baseDir, name, ids, settings: { ...CITUS_SETTINGS, ...settings } })));
  const nodes = started.filter((result) => result.status === 'fulfilled').map((result) => result.value);
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await Promise.allSettled(nodes.map((node) => node.stop()));
    throw failed.reason;
  }
  const [coordinator, ...workerNodes] = nodes;
  const cluster = {
    baseDir,
    coordinator,
    workers: workerNodes,
    createDatabase: (name) => createCitusDatabase(cluster, name),
    cloneDatabase: (template, name) => cloneCitusDatabase(cluster, template, name),
    async stop() {
      await Promise.allSettled(nodes.map((node) => node.stop()));
      rmSync(baseDir, { recursive: true, force: true });
    },
  };
  return cluster;
}

/**
 * A Citus database: made on every node (Citus does not propagate CREATE DATABASE by default), the
 * extension created in each, then the coordinator told where it is and where its workers are.
 * Citus's metadata (nodes, shards, placements) is per database: each database is a cluster of its own.
 */
export async function createCitusDatabase({ coordinator, workers }, name) {
  const nodes = [coordinator, ...workers];
  if (name !== 'postgres') await Promise.all(nodes.map((node) => node.query('postgres', `CREATE DATABASE ${name}`)));
  await Promise.all(nodes.map((node) => node.query(name, 'CREATE EXTENSION IF NOT EXISTS citus')));
  await coordinator.query(name, 'SELECT citus_set_coordinator_host($1, $2)', ['127.0.0.1', coordinator.port]);
  for (const worker of workers) await coordinator.query(name, 'SELECT citus_add_node($1, $2)', ['127.0.0.1', worker.port]);
}

/**
 * `CREATE DATABASE … TEMPLATE` on the coordinator alone copies its metadata but not the workers'
 * shards; made on every node at once, the copies are again one cluster: the same node list, shard
 * ids and placements on the coordinator, the same shard tables on each worker, and Citus connects
 * to a worker's database of the same name. A template must have no session open: Citus's
 * maintenance daemon keeps one in every database it serves, so they are ended first (the template
 * refuses connections, so none comes back).
 */
export async function cloneCitusDatabase({ coordinator, workers }, template, name) {
  await Promise.all(
    [coordinator, ...workers].map(async (node) => {
      await node.query('postgres', `ALTER DATABASE ${template} ALLOW_CONNECTIONS false`);
      await node.query('postgres', 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [template]);
      await node.query('postgres', `CREATE DATABASE ${name} TEMPLATE ${template}`);
    }),
  );
}

async function query(url, sql, params) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** Runs a PostgreSQL program as `ids`; on failure throws with its output (and the server log's tail). */
function run(command, args, ids, log) {
  return new Promise((resolve, reject) => {
    // HOME: the server's libpq (Citus's connections between nodes) reads files under it; not root's
    const env = { ...process.env, HOME: ids.uid === undefined ? process.env.HOME : '/var/lib/postgresql' };
    const child = spawn(command, args, { ...ids, env, stdio: ['ignore', 'pipe', 'pipe'], cwd: '/' });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) return resolve(output);
      let tail = '';
      try {
        if (log) tail = `\n${readFileSync(log, 'utf8').split('\n').slice(-20).join('\n')}`;
      } catch {
        tail = '';
      }
      reject(new Error(`${path.basename(command)} ${args.join(' ')} exited with code ${code}: ${output.trim()}${tail}`));
    });
  });
}
