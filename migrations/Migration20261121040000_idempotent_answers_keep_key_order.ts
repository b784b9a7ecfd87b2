import { Migration } from '@mikro-orm/migrations';

/**
 * Stored answers are replayed as they were sent: `json` keeps the text, key order included, where
 * `jsonb` sorted the keys (a replayed transfer listed `id`, `to`, `date`, … instead of the order
 * of the first answer, and a GraphQL answer lost the order of its selection). Answers already
 * stored keep jsonb's order; they expire within 48 h.
 */
export class Migration20261121040000_idempotent_answers_keep_key_order extends Migration {
  override up(): void {
    this.addSql(`ALTER TABLE idempotency_keys ALTER COLUMN response TYPE json USING response::json`);
  }
}
