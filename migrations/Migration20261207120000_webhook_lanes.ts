import { Migration } from '@mikro-orm/migrations';

/**
 * Fair outbound webhooks between owners, failing endpoints apart (CONTRACT §18, clarification of
 * part three), and the delivery log in the order of its attempts (§16 clarification).
 *
 * `webhook_endpoints.failing_since`: set when an attempt to the endpoint failed or ran past the
 * prompt time (src/domain/webhook-endpoints/delivery-lanes.ts), cleared when one answers 2xx
 * promptly; every instance's claim serves the endpoint's jobs in the failing lane meanwhile.
 *
 * `webhook_deliveries.created_at` is now when the attempt was made (written by the recording
 * statement, no longer its own time), and the log is read newest first by it: the index follows.
 */
export class Migration20261207120000_webhook_lanes extends Migration {
  override up(): void {
    this.addSql(`ALTER TABLE webhook_endpoints ADD COLUMN failing_since timestamptz(3)`);
    this.addSql(`CREATE INDEX webhook_deliveries_endpoint_created_idx ON webhook_deliveries (endpoint_id, created_at, seq)`);
    this.addSql(`DROP INDEX webhook_deliveries_endpoint_idx`);
  }
}
