import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { migrate, openDatabase } from '../db/database.js';
import { startEmbeddedPostgres } from '../db/embedded-postgres.js';
import { generateQueries } from './sql-generator.js';

/**
 * `npm run sql:generate`: writes src/queries/*.sql (the SQL every repository sends, per its
 * samples), removing files no longer generated. The samples run on a cluster of their own in a
 * temporary folder, new and migrated, never on DATABASE_URL or LEDGER_DATA_DIR: the files then
 * depend on the code and the migrations alone, not on whatever data a database holds.
 */
const DIR = 'src/queries';
// error: PostgreSQL's own log of the statements the samples provoke on purpose (a missing project's foreign key) stays out
const logger = pino({ level: 'error' }, pino.destination(2));
const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-sql-generate-'));
let files: Map<string, string>;
try {
  const cluster = await startEmbeddedPostgres(dataDir, logger);
  try {
    const db = await openDatabase(cluster.url, logger, 2);
    try {
      await migrate(db, logger);
      files = await generateQueries(db);
    } finally {
      await db.close();
    }
  } finally {
    await cluster.stop();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
mkdirSync(DIR, { recursive: true });
for (const name of readdirSync(DIR)) if (name.endsWith('.sql') && !files.has(name)) rmSync(`${DIR}/${name}`);
for (const [name, text] of files) writeFileSync(`${DIR}/${name}`, text);
process.stdout.write(`wrote ${files.size} files in ${DIR}\n`);
