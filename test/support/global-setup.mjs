// Plain ESM (jest loads global setup outside its transform); imports the build that `npm test` makes first.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, embeddedUrl } from '../../dist/src/db/embedded-postgres.js';
import { migrate, openDatabase } from '../../dist/src/db/database.js';
import { createLogger } from '../../dist/src/logger.js';

/**
 * One PostgreSQL for the whole run. Migrations are applied once to `ledger_template`; every test
 * file clones it (CREATE DATABASE … TEMPLATE), which takes milliseconds.
 *
 * LEDGER_TEST_SERVER picks the server (docs/decisions/citus-lane.md): the embedded PostgreSQL 18
 * by default; `pg15`, Debian's PostgreSQL 15 (`npm run test:pg15`); `citus`, Citus 13 on
 * PostgreSQL 15, a coordinator and two workers, built from vendor/citus when not cached
 * (`npm run test:citus`). The tests reach every one by LEDGER_TEST_PG_PORT (test/support/database.ts).
 */
export default async function globalSetup() {
  const logger = createLogger('error'); // PostgreSQL logs the errors tests provoke on purpose (duplicate keys)
  const server = process.env.LEDGER_TEST_SERVER ?? 'embedded';
  const startedAt = performance.now();
  const port = server === 'embedded' ? await startEmbedded(logger) : server === 'pg15' ? await startPg15() : server === 'citus' ? await startCitus() : undefined;
  if (port === undefined) throw new Error(`LEDGER_TEST_SERVER=${server}: expected embedded, pg15 or citus`);
  const migratingAt = performance.now();
  const db = await openDatabase(embeddedUrl(port, 'ledger_template'), logger, 2);
  await migrate(db, logger);
  await db.close();
  process.env.LEDGER_TEST_PG_PORT = String(port);
  const seconds = (from, to) => ((to - from) / 1000).toFixed(1);
  // the other lanes say what their set-up cost (docs/decisions/citus-lane.md); `npm test` stays quiet
  if (server !== 'embedded') process.stderr.write(`\nLEDGER_TEST_SERVER=${server}: server ready in ${seconds(startedAt, migratingAt)} s, template migrated in ${seconds(migratingAt, performance.now())} s\n`);
}

async function startEmbedded(logger) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-test-'));
  const cluster = await startEmbeddedPostgres(dataDir, logger);
  const admin = new pg.Client({ connectionString: embeddedUrl(cluster.port, 'postgres') });
  await admin.connect();
  await admin.query('CREATE DATABASE ledger_template');
  await admin.end();
  process.env.LEDGER_TEST_DATA_DIR = dataDir;
  globalThis.__ledgerCluster = cluster;
  return cluster.port;
}

async function startPg15() {
  const { ensurePostgres15 } = await import('../../scripts/citus-install.mjs');
  const { startPlainServer } = await import('./pg-server.mjs');
  const server = await startPlainServer({ pgBin: ensurePostgres15() });
  await server.query('postgres', 'CREATE DATABASE ledger_template');
  globalThis.__ledgerCluster = server;
  return server.port;
}

/** The cluster's ports: the coordinator's is the run's; the workers' let test files clone on every node. */
async function startCitus() {
  const { ensureCitus } = await import('../../scripts/citus-install.mjs');
  const { startCitusCluster } = await import('./pg-server.mjs');
  const { pgBin } = ensureCitus();
  const cluster = await startCitusCluster({ pgBin });
  globalThis.__ledgerCluster = cluster;
  await cluster.createDatabase('ledger_template');
  process.env.LEDGER_TEST_CITUS_WORKER_PORTS = cluster.workers.map((worker) => worker.port).join(',');
  return cluster.coordinator.port;
}
