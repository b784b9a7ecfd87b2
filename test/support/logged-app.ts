import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createApp, type App } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { createTestDatabase } from './database.js';
import { ADMIN_TOKEN } from './test-app.js';

export interface LoggedApp {
  app: App;
  db: Database;
  baseUrl: string;
  /** Every log line the app wrote, parsed. */
  lines: Record<string, any>[];
  close(): Promise<void>;
}

/** The real app on a fresh database, with its log captured (for tests that break the database under it). */
export async function startLoggedApp(): Promise<LoggedApp> {
  const lines: Record<string, any>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  const db = await openDatabase(await createTestDatabase(), logger, 2);
  const app = await createApp({ db, logger, adminToken: ADMIN_TOKEN });
  const baseUrl = `http://127.0.0.1:${(await app.listen(0, '127.0.0.1')).port}`;
  return {
    app,
    db,
    baseUrl,
    lines,
    async close() {
      await app.close(1000);
      await db.close().catch(() => undefined);
    },
  };
}
