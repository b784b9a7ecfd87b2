import { Migration } from '@mikro-orm/migrations';

/**
 * Outbound webhooks (CONTRACT §16).
 *
 * `webhook_endpoints`: a project's receiving URLs. `types` NULL means every event type. The
 * secret is kept as is: signing needs it (it is answered once, at creation). `start_pos` is the
 * top of the global event stream (`events.stream_pos`) when the endpoint was created: it receives
 * the events numbered after it.
 *
 * `webhook_fanout`: one row, the stream position up to which events have been turned into jobs.
 * One instance at a time advances it (its row lock, taken with SKIP LOCKED); creating an endpoint
 * takes the same lock, so an advance never passes an endpoint that is being created.
 *
 * `webhook_jobs`: one row per endpoint × event still to deliver; `attempts` counts the attempts
 * recorded so far. An instance claims due rows with FOR UPDATE SKIP LOCKED and, in the same
 * statement, moves `next_attempt_at` past its lease and sets `lease_token`: no other instance
 * takes the row while the lease runs, and when the holder dies the row is due again at the
 * lease's end. Only the lease holder can record the attempt (the token must match). A job row
 * is deleted when its event has been delivered or its last attempt failed.
 *
 * `webhook_deliveries`: one row per attempt, the log GET /webhook-endpoints/{id}/deliveries reads.
 *
 * Every table carries project_id (CONTRACT §9). Deleting an endpoint deletes its jobs and log.
 */
export class Migration20261124127000_webhook_endpoints extends Migration {
  override up(): void {
    this.addSql(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        project_id integer NOT NULL REFERENCES projects (id),
        url text NOT NULL,
        types text[],
        secret text NOT NULL,
        start_pos bigint NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    this.addSql(`CREATE INDEX webhook_endpoints_project_idx ON webhook_endpoints (project_id, seq)`);
    this.addSql(`CREATE TABLE webhook_fanout (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), stream_pos bigint NOT NULL)`);
    this.addSql(`INSERT INTO webhook_fanout (stream_pos) SELECT coalesce(max(stream_pos), 0) FROM events`);
    this.addSql(`
      CREATE TABLE webhook_jobs (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        project_id integer NOT NULL,
        event_id uuid NOT NULL,
        stream_pos bigint NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz(3) NOT NULL DEFAULT now(),
        lease_token uuid,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        UNIQUE (endpoint_id, event_id)
      )`);
    this.addSql(`CREATE INDEX webhook_jobs_due_idx ON webhook_jobs (next_attempt_at, id)`);
    this.addSql(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY,
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        project_id integer NOT NULL,
        event_id uuid NOT NULL,
        attempt integer NOT NULL,
        status text NOT NULL CHECK (status IN ('succeeded', 'failed')),
        response_status integer,
        error text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        UNIQUE (endpoint_id, event_id, attempt)
      )`);
    this.addSql(`CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, seq)`);
  }
}
