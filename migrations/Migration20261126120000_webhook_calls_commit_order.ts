import { Migration } from '@mikro-orm/migrations';

/**
 * `webhookEvents` pages by `seq` (CONTRACT §5/§16: no gaps or repeats while calls go on). An
 * identity `seq` was taken at insert, inside the posting's transaction, so a call that committed
 * first with a higher `seq` let a reader page past a lower one that was not visible yet. From now
 * on a call is stored with `seq` NULL and `pos` (insert order), and webhook_sequence_calls numbers
 * the committed calls in commit order before each read, as ledger_sequence_events does for events.
 * The numbers already given are kept, so cursors handed out before stay valid.
 */
export class Migration20261126120000_webhook_calls_commit_order extends Migration {
  override up(): void {
    this.addSql(`ALTER TABLE webhook_events ALTER COLUMN seq DROP IDENTITY`);
    this.addSql(`ALTER TABLE webhook_events ALTER COLUMN seq DROP NOT NULL`);
    this.addSql(`ALTER TABLE webhook_events ADD COLUMN pos bigint GENERATED ALWAYS AS IDENTITY`);
    this.addSql(`CREATE INDEX webhook_events_unnumbered_idx ON webhook_events (pos) WHERE seq IS NULL`);
  }

  override down(): void {
    this.addSql(`UPDATE webhook_events SET seq = (SELECT coalesce(max(seq), 0) FROM webhook_events) + pos WHERE seq IS NULL`);
    this.addSql(`DROP INDEX webhook_events_unnumbered_idx`);
    this.addSql(`ALTER TABLE webhook_events DROP COLUMN pos`);
    this.addSql(`ALTER TABLE webhook_events ALTER COLUMN seq SET NOT NULL`);
    this.addSql(`ALTER TABLE webhook_events ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY`);
    this.addSql(`SELECT setval(pg_get_serial_sequence('webhook_events', 'seq'), (SELECT coalesce(max(seq), 0) + 1 FROM webhook_events), false)`);
  }
}
