import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { entities } from './entities.js';
import { refuseConnectionsOnClose } from './closing-pool.js';
import { NotificationChannel } from './notifications.js';
import { inRequestScope, instrumentClient, requestScope } from './statement-counter.js';
import { limitPreparedStatements } from './prepared-statements.js';
import { limitConnectionsPerRequest } from './request-connections.js';
import { ACQUIRE_TIMEOUT_MS, tagAcquireTimeouts } from './acquire-timeout.js';
import { migrations } from '../../migrations/index.js';
import { changedRoutines, installRoutines, loadRoutines, retiredRoutines } from './routines.js';
import type { Logger } from '../logger.js';

// Postgres int8 and numeric arrive as strings; money stays exact because we never parse
// them as floats (see money.ts). Counts (int8) are converted explicitly where needed.

/**
 * MikroORM gives its pool type parsers that keep timestamps as text (it hydrates them itself).
 * Raw queries through `query()` parse `timestamptz` into a Date, as the repositories expect;
 * every other type keeps the pool's parser.
 */
type TypeParsers = { getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown };

function rawQueryTypes(poolTypes: TypeParsers | undefined): TypeParsers {
  return {
    getTypeParser(oid, format) {
      if (oid === pg.types.builtins.TIMESTAMPTZ && format !== 'binary') return (value: string) => new Date(value);
      return (poolTypes ?? pg.types).getTypeParser(oid, format);
    },
  };
}

export interface Database {
  /** The connection URL, for connections outside the pools (`notifications` opens its own with it). */
  url: string;
  orm: MikroORM;
  /**
   * The request connections (the ORM's): statements cut after LEDGER_STATEMENT_TIMEOUT_MS when set;
   * a caller waits at most ACQUIRE_TIMEOUT_MS for one (src/db/acquire-timeout.ts), and one request
   * holds at most CONNECTIONS_PER_REQUEST of them at once (request-connections.ts).
   */
  pool: pg.Pool;
  /** How many request connections the pool opens at most (LEDGER_DB_POOL_SIZE). */
  requestConnections: number;
  /** Connections for work outside any request (sweeper, numbering, deliveries, start-up): never cut. */
  background: pg.Pool;
  /**
   * The LISTEN connection's channel (src/services.ts hands it to the services; createApp starts it).
   * Opening already when openDatabase was asked to (`listen`: the service's start); closed by close().
   */
  notifications: NotificationChannel;
  /** A fresh unit of work (one per request or operation). */
  em(): EntityManager;
  /**
   * One statement on a pooled connection — a request connection inside a request's scope
   * (src/db/statement-counter.ts), else a background one. With `name`, a prepared statement: each connection
   * parses and plans it once and afterwards only binds and executes it (PostgreSQL plans an
   * unnamed statement at every execution, which costs more than running a small one). Only for
   * fixed SQL texts sent per request; never for generated SQL (each text would stay prepared on
   * every connection).
   */
  query<T = Record<string, unknown>>(text: string, params?: unknown[], name?: string): Promise<T[]>;
  /**
   * Whether a request connection answers `SELECT 1` within `withinMs` (`/readyz`): false when the
   * database cannot be reached, or when no connection of the pool comes free in time.
   */
  reachable(withinMs: number): Promise<boolean>;
  /** Runs `fn` on one pooled client inside BEGIN/COMMIT (ROLLBACK on throw). */
  transaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` with every `query` of its async context on one pooled connection inside a
   * transaction that always rolls back (a dry run, CONTRACT §24): `fn` sees what its own
   * statements wrote, and nothing of it is ever committed or seen by anyone else.
   */
  rolledBack<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** LEDGER_STATEMENT_TIMEOUT_MS: the request connections' statement_timeout (none when absent). */
  statementTimeoutMs?: number;
  /** The migrations `migrate()` applies: the project's (migrations/index.ts) when absent. */
  migrations?: typeof migrations;
  /**
   * Open the LISTEN connection now, beside the pools' first connections (`notifications`). At
   * start-up its handshake then runs while the ORM sets up and the app is built, rather than being
   * awaited once they are done (bench/results/2026-11-27-minify.txt).
   */
  listen?: boolean;
}

/**
 * How long a pooled connection may sit idle before the pool closes it (pg's default is 10 s).
 * A new backend re-plans every statement and rebuilds its catalog caches and compiled routines:
 * after a lull of a few seconds the first seconds of traffic cost ≈ 60 µs more PostgreSQL CPU
 * per transfer (bench/results/2026-11-27-growth.txt). Idle connections cost PostgreSQL nothing
 * but their memory, and min 0 still lets the pools shrink after a real pause.
 */
export const POOL_IDLE_MS = 5 * 60_000;

/**
 * pg-pool settings of both pools. `allowExitOnIdle`: an idle connection (and its 5-minute timer)
 * never keeps a process alive on its own. The service stays up through its HTTP server; a CLI
 * command or a test that ends without `close()` then exits instead of waiting out the idle timers.
 */
/**
 * JIT off on every connection, in its start-up message (no statement of its own): the service's
 * statements are short and planned for a few rows, and a JIT-enabled PostgreSQL (Debian's 15, with
 * LLVM) compiled some of them for ≈ 1 s each on tables whose statistics were still empty — the
 * journal writer's read went from 6–15 ms to ≈ 1 s (docs/decisions/jit-off.md).
 */
const SESSION_OPTIONS = '-c jit=off';
const POOL_SETTINGS = { idleTimeoutMillis: POOL_IDLE_MS, allowExitOnIdle: true, options: SESSION_OPTIONS } as const;

export async function openDatabase(url: string, logger: Logger, poolSize = 20, options: DatabaseOptions = {}): Promise<Database> {
  // The background pool comes first and opens its first connections while the ORM discovers its
  // entities and opens its own: start-up's first queries (the migrations check, the workers'
  // first reads) then wait for no handshake of their own, each ≈ 40 ms of idle time in series
  // before. Its type parsers are the ORM pool's, which exist only once the ORM does: they are
  // looked up per query, and no query runs before then.
  let poolTypes: TypeParsers | undefined;
  const backgroundTypes: TypeParsers = { getTypeParser: (oid, format) => (poolTypes ?? pg.types).getTypeParser(oid, format) };
  // as large as the request pool: it opens connections only as background work needs them (min 0)
  const background = new pg.Pool({ connectionString: url, max: poolSize, ...POOL_SETTINGS, types: backgroundTypes as pg.CustomTypesConfig });
  background.on('error', (err) => logger.warn({ err }, 'idle background database connection failed'));
  background.on('acquire', limitPreparedStatements);
  const warmed = warmUp(background, Math.min(BACKGROUND_WARM_CONNECTIONS, poolSize));
  const notifications = new NotificationChannel(url, logger);
  // a failure is the app's to report: its start() of the channel opens it again, and fails the start-up then
  if (options.listen) notifications.start().catch(() => undefined);
  let orm: MikroORM;
  let pool: pg.Pool;
  try {
    orm = await openOrm(url, poolSize, options);
    pool = (await orm.em.getConnection().getNativeClient()) as pg.Pool;
  } catch (error) {
    await warmed;
    await notifications.stop();
    await background.end();
    throw error;
  }
  // inner: once close began, a connection whose handshake ends late goes straight back (closing-pool.ts)
  const refuseConnections = refuseConnectionsOnClose(pool);
  pool.on('acquire', (client) => {
    instrumentClient(client);
    limitPreparedStatements(client);
  });
  // then every checkout of a request connection (ORM, raw queries, transactions, SQL plans, exports) takes one of its request's permits
  limitConnectionsPerRequest(pool, requestScope);
  // outer: a wait that ran out, for a permit or for the pool, is the same 503 `timeout`
  tagAcquireTimeouts(pool);
  pool.on('error', (err) => logger.warn({ err }, 'idle database connection failed'));
  poolTypes = (pool as unknown as { options: { types?: TypeParsers } }).options.types;
  await warmed;
  const types = rawQueryTypes(poolTypes);
  const poolOfCaller = (): pg.Pool => (inRequestScope() ? pool : background);
  /** The connection of the rolled-back transaction the caller runs in (`rolledBack`), if any. */
  const pinned = new AsyncLocalStorage<pg.PoolClient>();
  return {
    url,
    orm,
    pool,
    requestConnections: poolSize,
    background,
    notifications,
    em: () => orm.em.fork(),
    async query<T>(text: string, params?: unknown[], name?: string) {
      const result = await (pinned.getStore() ?? poolOfCaller()).query({ name, text, values: params as unknown[], types });
      return result.rows as T[];
    },
    async reachable(withinMs: number) {
      let timer: NodeJS.Timeout | undefined;
      // the probe that loses the race still ends: its wait is bounded by ACQUIRE_TIMEOUT_MS, its statement by the statement time-out
      const probe = pool.query('SELECT 1').then(() => true, () => false);
      const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), withinMs)));
      try {
        return await Promise.race([probe, late]);
      } finally {
        clearTimeout(timer);
      }
    },
    async transaction<T>(fn: (client: pg.PoolClient) => Promise<T>) {
      const client = await poolOfCaller().connect();
      /** Set when ROLLBACK failed: the connection's state is unknown, so the pool destroys it. */
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await fn(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: unknown) => {
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
    async rolledBack<T>(fn: () => Promise<T>) {
      const client = await poolOfCaller().connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        return await pinned.run(client, fn);
      } finally {
        await client.query('ROLLBACK').catch((rollbackError: unknown) => {
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        });
        client.release(broken);
      }
    },
    async close() {
      refuseConnections(); // before the ORM's close begins (src/db/closing-pool.ts)
      await notifications.stop();
      await orm.close(true);
      await background.end();
    },
  };
}

/** Background connections opened with the ORM (openDatabase): the migrations check and the workers' first reads at start-up run two at a time. */
const BACKGROUND_WARM_CONNECTIONS = 2;

function openOrm(url: string, poolSize: number, options: DatabaseOptions): Promise<MikroORM> {
  return MikroORM.init({
    clientUrl: url,
    entities,
    extensions: [Migrator],
    pool: { min: 0, max: poolSize, idleTimeoutMillis: POOL_IDLE_MS },
    // merged into the pg.Pool's options (MikroORM's pool setting carries only min, max and the idle
    // time); statement_timeout is sent in each connection's start-up message: no statement per
    // request or per checkout
    driverOptions: { allowExitOnIdle: POOL_SETTINGS.allowExitOnIdle, options: SESSION_OPTIONS, connectionTimeoutMillis: ACQUIRE_TIMEOUT_MS, ...(options.statementTimeoutMs === undefined ? {} : { statement_timeout: options.statementTimeoutMs }) },
    migrations: { migrationsList: options.migrations ?? migrations, tableName: 'mikro_orm_migrations', snapshot: false, silent: true },
    debug: false,
    allowGlobalContext: false,
  });
}

/** Opens `count` connections of `pool` at once and returns them to it idle; a failure is left to the first real query to report. */
async function warmUp(pool: pg.Pool, count: number): Promise<void> {
  const opened = await Promise.allSettled(Array.from({ length: count }, () => pool.connect()));
  for (const connection of opened) if (connection.status === 'fulfilled') connection.value.release();
}

const MIGRATION_LOCK = 727_401_001;

/**
 * Applies pending migrations, then installs the database routines whose files changed
 * (src/db/routines.ts). A session advisory lock makes concurrent start-ups take turns,
 * so two instances against one database never run the same migration twice. Neither the wait
 * for that lock nor a long migration is cut by the requests' statement time-out.
 */
export async function migrate(db: Database, logger: Logger): Promise<string[]> {
  if (await schemaCurrent(db)) return [];
  const lock = await db.background.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    // the migrator runs on the ORM's connections, the request ones: its transaction lifts their time-out
    const connection = db.orm.em.getConnection();
    const applied = await connection.transactional(async (trx) => {
      await connection.execute('SET LOCAL statement_timeout = 0', [], 'run', trx);
      return db.orm.migrator.up({ transaction: trx });
    });
    const names = applied.map((m) => m.name);
    if (names.length) logger.info({ migrations: names }, 'migrations applied');
    const routines = await installRoutines(lock);
    if (routines.installed.length) logger.info({ routines: routines.installed }, 'database routines installed');
    if (routines.dropped.length) logger.info({ routines: routines.dropped }, 'retired database routines dropped');
    return names;
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    lock.release();
  }
}

/**
 * True when every migration the ORM knows is recorded as applied, every routine's recorded
 * text is its file's and no retired routine is recorded: exactly when `migrate()` under the lock
 * would apply, install and drop nothing (the migrator applies the known migrations it has no
 * record of; installRoutines() the routines whose record differs, and drops the retired ones). Read without the lock, so a start on a current database costs two
 * statements instead of the lock, the migrator's probes and a statement per routine. An instance
 * migrating at the same moment has not committed: this reads "not current", and the caller
 * takes the lock and waits its turn as before.
 */
async function schemaCurrent(db: Database): Promise<boolean> {
  const [tables] = await db.query<{ present: boolean }>(
    `SELECT to_regclass('mikro_orm_migrations') IS NOT NULL AND to_regclass('db_routines') IS NOT NULL AS present`,
  );
  if (!tables?.present) return false; // a new database: the migrator creates its table
  const [state] = await db.query<{ migrations: string[]; routines: string[]; hashes: string[] }>(
    `SELECT ARRAY(SELECT name FROM mikro_orm_migrations) AS migrations,
            ARRAY(SELECT name FROM db_routines ORDER BY name) AS routines,
            ARRAY(SELECT sha256 FROM db_routines ORDER BY name) AS hashes`,
  );
  // the migrator records names without an extension (MigrationStorage.getMigrationName)
  const applied = new Set(state.migrations.map((name) => name.replace(/\.[jt]s$/, '')));
  const known = db.orm.config.get('migrations').migrationsList ?? [];
  const pending = known.some((migration) => !('name' in migration) || !applied.has(migration.name));
  if (pending) return false;
  const installed = new Map(state.routines.map((name, i) => [name, state.hashes[i]]));
  return changedRoutines(loadRoutines(), installed).length === 0 && retiredRoutines(installed.keys()).length === 0;
}
