import { Migration } from '@mikro-orm/migrations';

/**
 * Fair outbound webhooks (CONTRACT §18). A claim now takes each endpoint's earliest due jobs
 * (at most as many as the endpoint has free of its 4 attempts in flight), so it reads jobs by
 * endpoint in due order; and it counts the attempts in flight per endpoint, which are the jobs
 * under a lease (few: at most the instances' slots, plus leases a dead instance left to run out).
 */
export class Migration20261126104500_webhook_fair_claims extends Migration {
  override up(): void {
    this.addSql(`CREATE INDEX webhook_jobs_endpoint_due_idx ON webhook_jobs (endpoint_id, next_attempt_at, id)`);
    this.addSql(`CREATE INDEX webhook_jobs_leased_idx ON webhook_jobs (endpoint_id) WHERE lease_token IS NOT NULL`);
  }
}
