// Plain ESM (jest loads global setup outside its transform); imports the build that `npm test` makes first.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, embeddedUrl } from '../../dist/src/db/embedded-postgres.js';
import { migrate, openDatabase } from '../../dist/src/db/database.js';
import { createLogger } from '../../dist/src/logger.js';

/**
 * One embedded PostgreSQL for the whole run. Migrations are applied once to `ledger_template`;
 * every test file clones it (CREATE DATABASE … TEMPLATE), which takes milliseconds.
 */
export default async function globalSetup() {
  const logger = createLogger('error'); // PostgreSQL logs the errors tests provoke on purpose (duplicate keys)
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-test-'));
  const cluster = await startEmbeddedPostgres(dataDir, logger);
  const admin = new pg.Client({ connectionString: embeddedUrl(cluster.port, 'postgres') });
  await admin.connect();
  await admin.query('CREATE DATABASE ledger_template');
  await admin.end();
  const db = await openDatabase(embeddedUrl(cluster.port, 'ledger_template'), logger, 2);
  await migrate(db, logger);
  await db.close();
  process.env.LEDGER_TEST_PG_PORT = String(cluster.port);
  process.env.LEDGER_TEST_DATA_DIR = dataDir;
  globalThis.__ledgerCluster = cluster;
}
