import { Migration } from '@mikro-orm/migrations';
import pg from 'pg';
import { migrate, openDatabase, type Database } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { migrations } from '../../migrations/index.js';
import { createTestDatabase } from '../support/database.js';

/**
 * migrate() on a database that is already current (a second start) does nothing and skips the
 * migration lock; anything left to do — a new migration, a routine whose text changed — is still
 * done, under the lock.
 */
const MIGRATION_LOCK = 727_401_001; // src/db/database.ts
const logger = createLogger('silent');

class ProbeMigration extends Migration {
  override up(): void {
    this.addSql(`CREATE TABLE migrate_probe (id int PRIMARY KEY)`);
  }
}
const withProbe = [...migrations, { name: 'Migration29991231000000_probe', class: ProbeMigration }];

let url: string;
let holder: pg.Client;
const opened: Database[] = [];
const open = async (list = migrations) => {
  const db = await openDatabase(url, logger, 2, { migrations: list });
  opened.push(db);
  return db;
};
beforeEach(async () => {
  url = await createTestDatabase(); // cloned from the run's migrated template: current
  holder = new pg.Client({ connectionString: url });
  await holder.connect();
});
afterEach(async () => {
  await holder.end();
  await Promise.all(opened.splice(0).map((db) => db.close()));
});

it('applies nothing on a current database, without waiting for the migration lock', async () => {
  // another instance holds the lock: a migrate() that took it would wait until the test times out
  await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  const db = await open();
  expect(await migrate(db, logger)).toEqual([]);
});

it('still applies a new migration on an otherwise current database, under the lock', async () => {
  const db = await open(withProbe);
  expect(await migrate(db, logger)).toEqual(['Migration29991231000000_probe']);
  expect((await holder.query(`SELECT to_regclass('migrate_probe') IS NOT NULL AS present`)).rows[0].present).toBe(true);
  expect(await migrate(db, logger)).toEqual([]); // and now it is current
});

it('reinstalls a routine whose recorded text differs from its file', async () => {
  await holder.query(`UPDATE db_routines SET sha256 = 'stale' WHERE name = 'ledger_post'`);
  const db = await open();
  await migrate(db, logger);
  const { rows } = await holder.query<{ sha256: string }>(`SELECT sha256 FROM db_routines WHERE name = 'ledger_post'`);
  expect(rows[0].sha256).not.toBe('stale');
});

it('drops a routine an older version installed that no file defines any more (renamed), and says so', async () => {
  // as a database migrated before ledger_release_expired became holds_release_expired had it
  await holder.query(`CREATE FUNCTION ledger_release_expired(p_project integer, p_wallet uuid, p_asset uuid, p_now timestamp with time zone)
                        RETURNS bigint LANGUAGE sql AS $$ SELECT 0::bigint $$`);
  await holder.query(`INSERT INTO db_routines (name, sha256) VALUES ('ledger_release_expired', 'old')`);
  const db = await open();
  await migrate(db, logger); // the database reads as not current: the lock is taken and the orphan dropped
  const left = await holder.query(`SELECT 1 FROM pg_proc WHERE proname = 'ledger_release_expired'`);
  expect(left.rowCount).toBe(0);
  const recorded = await holder.query(`SELECT 1 FROM db_routines WHERE name = 'ledger_release_expired'`);
  expect(recorded.rowCount).toBe(0);
});

