import { Migration } from '@mikro-orm/migrations';

/**
 * Database routines (the posting function) get one home each: a `.sql` file beside the code that
 * calls them, installed by `migrate()` after the migrations whenever its text changes
 * (src/db/routines.ts). This table records which text is installed. The copies of `ledger_post`
 * in the earlier migrations are frozen history: what each of those migrations installed.
 */
export class Migration20261123000000_routines extends Migration {
  override up(): void {
    this.addSql(`
      CREATE TABLE db_routines (
        name text PRIMARY KEY,
        sha256 text NOT NULL,
        installed_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  override down(): void {
    this.addSql(`DROP TABLE db_routines`);
  }
}
