// One throw-away embedded PostgreSQL cluster for a benchmark run, with one database per
// contestant, both created by the service's own migrations.

import pg from 'pg';
import { startEmbeddedPostgres, embeddedUrl } from '../../dist/src/db/embedded-postgres.js';
import { openDatabase, migrate } from '../../dist/src/db/database.js';
import { createLogger } from '../../dist/src/logger.js';

export const quietLogger = () => createLogger('warn');

/**
 * A logger for the embedded cluster that prints nothing and keeps PostgreSQL's ERROR/FATAL
 * messages (deadlocks, serialization failures, ...) so the report can count them per run.
 */
function collectingLogger() {
  const messages = [];
  const keep = (obj, msg) => {
    const text = typeof obj === 'string' ? obj : String(msg ?? obj?.err?.message ?? '');
    for (const line of text.split('\n')) if (/\b(ERROR|FATAL|PANIC|WARNING):/.test(line)) messages.push(line.replace(/^.*?\b(ERROR|FATAL|PANIC|WARNING):\s*/, '$1: '));
  };
  const logger = { messages, debug() {}, trace() {}, info() {}, warn: keep, error: keep, fatal: keep, child: () => logger };
  return logger;
}

export async function startCluster(dataDir) {
  const logger = quietLogger();
  const pgLog = collectingLogger();
  const embedded = await startEmbeddedPostgres(dataDir, pgLog);
  const admin = new pg.Client({ connectionString: embeddedUrl(embedded.port, 'postgres') });
  await admin.connect();
  return {
    port: embedded.port,
    /** PostgreSQL ERROR/FATAL/WARNING lines so far (take a slice around a run). */
    messages: pgLog.messages,
    url: (database) => embeddedUrl(embedded.port, database),
    /** Creates `name` and applies the service's migrations to it. */
    async createMigratedDatabase(name) {
      await admin.query(`CREATE DATABASE ${name}`);
      const url = embeddedUrl(embedded.port, name);
      const db = await openDatabase(url, logger, 2);
      try {
        await migrate(db, logger);
      } finally {
        await db.close();
      }
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      } finally {
        await client.end();
      }
      return url;
    },
    async stop() {
      await admin.end().catch(() => undefined);
      await embedded.stop();
    },
  };
}

/** A small pool for the harness's own seeding and checks (not used during load runs). */
export function harnessPool(url, max = 8) {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  return pool;
}
