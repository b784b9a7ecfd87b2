import { Migration } from '@mikro-orm/migrations';

/**
 * The journal (CONTRACT §22): every transaction's place in its project's hash chain.
 *
 * `journal`: one row per transaction, (project_id, seq) from 1 without gaps, the entry's hash and
 * the previous entry's (64 zero hex digits, 32 zero bytes here, for the first). The primary key
 * makes a fork impossible (two entries for one seq), the unique transaction_id a transaction
 * journaled twice. Hashes are bytea: 32 bytes, not 64 characters.
 *
 * Entries are written after the commit, off the posting's path, by src/domain/journal/journal-writer.ts,
 * which follows the numbered event stream (`events.stream_pos`, commit order) from
 * `journal_cursor`: the stream position up to which every transaction's event
 * (`transaction.posted`, `points.expired`) has its entry, and `turns`, the number of writes so far.
 * Its one row is what keeps the writers of every instance to one chain: a write applies only if
 * `turns` is still what its read saw (an optimistic turn, one statement), else it is read again.
 *
 * `journal_backlog`: transactions posted before the outbox existed (Migration20261124126000_events)
 * have no event; they are journaled first, in their insertion order (`transactions.seq`), the only
 * order there is for them. Empty on a database created after that migration.
 */
export class Migration20261126172000_journal extends Migration {
  override up(): void {
    this.addSql(`
      CREATE TABLE journal (
        project_id integer NOT NULL,
        seq bigint NOT NULL CHECK (seq > 0),
        transaction_id uuid NOT NULL UNIQUE,
        hash bytea NOT NULL CHECK (length(hash) = 32),
        prev_hash bytea NOT NULL CHECK (length(prev_hash) = 32),
        PRIMARY KEY (project_id, seq)
      )`);
    this.addSql(`CREATE TABLE journal_cursor (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), stream_pos bigint NOT NULL, turns bigint NOT NULL)`);
    this.addSql(`INSERT INTO journal_cursor (stream_pos, turns) VALUES (0, 0)`);
    this.addSql(`CREATE TABLE journal_backlog (pos bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, project_id integer NOT NULL, transaction_id uuid NOT NULL)`);
    this.addSql(`
      INSERT INTO journal_backlog (project_id, transaction_id)
      SELECT t.project_id, t.id FROM transactions t
       WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.subject_id = t.id AND e.type IN ('transaction.posted', 'points.expired'))
       ORDER BY t.seq`);
  }

  override down(): void {
    this.addSql(`DROP TABLE journal, journal_cursor, journal_backlog`);
  }
}
