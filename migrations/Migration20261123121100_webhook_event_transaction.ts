import { Migration } from '@mikro-orm/migrations';

/**
 * A webhook flow's call is stored in its posting's transaction (webhook_post.sql), which checks
 * that a posting answered again (an idempotent retry) has no call recorded yet: by transaction id.
 */
export class Migration20261123121100_webhook_event_transaction extends Migration {
  override up(): void {
    this.addSql(`CREATE INDEX webhook_events_transaction_idx ON webhook_events (transaction_id) WHERE transaction_id IS NOT NULL`);
  }

  override down(): void {
    this.addSql(`DROP INDEX webhook_events_transaction_idx`);
  }
}
