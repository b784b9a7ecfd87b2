import { loadConfig } from '../config.js';
import { connectTarget } from '../db/connect.js';
import { migrate, openDatabase } from '../db/database.js';
import { createLogger } from '../logger.js';

/** `npm run migrate`: applies pending migrations to DATABASE_URL or the embedded database. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const target = await connectTarget(config, logger, true);
  const db = await openDatabase(target.url, logger, 2);
  try {
    const applied = await migrate(db, logger);
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
  } finally {
    await db.close();
    await target.embedded?.stop();
  }
}

void main();
