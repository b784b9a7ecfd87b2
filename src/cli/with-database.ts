import { pino } from 'pino';
import { loadConfig } from '../config.js';
import { connectTarget } from '../db/connect.js';
import { migrate, openDatabase, type Database } from '../db/database.js';

/**
 * The frame of every one-shot command: the database the service would use (DATABASE_URL, or the
 * embedded cluster of LEDGER_DATA_DIR, migrated first when `migrateEmbedded` — a new data
 * directory has no tables yet), logs on stderr only so stdout carries nothing but the command's
 * JSON (it can be piped into jq), and both closed afterwards whatever happens. An error of the
 * migration or of `work` goes to `onError`, which sets the command's exit code.
 */
export async function withDatabase(
  options: { migrateEmbedded: boolean },
  work: (db: Database) => Promise<void>,
  onError: (error: unknown) => void,
): Promise<void> {
  const config = loadConfig();
  const logger = pino({ level: 'warn', base: { service: 'ledger' }, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination(2));
  const target = await connectTarget(config, logger, true);
  const db = await openDatabase(target.url, logger, 2);
  try {
    if (options.migrateEmbedded && target.embedded) await migrate(db, logger);
    await work(db);
  } catch (error) {
    onError(error);
  } finally {
    await db.close();
    await target.embedded?.stop();
  }
}
