import type { Database } from '../../db/database.js';
import { ownedBy } from '../ownership/ownership.sql.js';
import { numberCommitted } from '../outbox/outbox.repository.js';
import { EVENT_TYPES, type CreatedWebhookEndpoint, type WebhookDeliveryView, type WebhookEndpointView, type WebhookEventType } from './webhook-endpoint.types.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

const ENDPOINT_COLUMNS = `w.id, w.project_id, w.url, w.types, w.created_at`;

/** Endpoints and their delivery log (SQL of CONTRACT §16's endpoint routes; the worker's SQL is in delivery.repository.ts). */
export class WebhookEndpointRepository {
  constructor(private readonly db: Database) {}

  /**
   * Creates the endpoint with its starting point in the event stream: it receives the events
   * numbered after it. Events committed before this moment but not yet numbered are numbered
   * first (ledger_sequence_events, whose lock this transaction then holds until it commits), so
   * none of them lands past the starting point. The fan-out's lock, taken first, keeps the
   * fan-out from moving past events numbered after the starting point while this endpoint is not
   * yet visible to it. The endpoint receives exactly the events committed after its creation.
   *
   * At most `limit` endpoints per project (null when the project has them already): counted
   * under the project row's lock, so concurrent creations on any number of instances take turns
   * and never pass the limit together. The lock is taken before the fan-out's (which it never
   * waits under), and FOR NO KEY UPDATE does not hold up postings referencing the project.
   */
  async insert(projectId: number, url: string, types: WebhookEventType[] | null, secret: string, limit: number): Promise<CreatedWebhookEndpoint | null> {
    return this.db.transaction(async (client) => {
      await client.query(`SELECT 1 FROM projects WHERE id = $1 FOR NO KEY UPDATE`, [projectId]);
      // a statement of its own: its snapshot is taken once the lock is held, so it sees every endpoint committed before
      const { rows: counted } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE project_id = $1`, [projectId]);
      if (counted[0].n >= limit) return null;
      await client.query(`SELECT 1 FROM webhook_fanout FOR UPDATE`);
      await numberCommitted(async (sql, params) => (await client.query(sql, params)).rows);
      const { rows } = await client.query<RawEndpoint & { secret: string }>(
        `INSERT INTO webhook_endpoints AS w (project_id, url, types, secret, start_pos)
         VALUES ($1, $2, $3, $4, coalesce((SELECT stream_pos FROM events WHERE stream_pos IS NOT NULL ORDER BY stream_pos DESC LIMIT 1), 0))
         RETURNING ${ENDPOINT_COLUMNS}, w.secret`,
        [projectId, url, types, secret],
      );
      return { ...toEndpoint(rows[0]), secret: rows[0].secret };
    });
  }

  /** The owner's endpoint (null when missing or another owner's). */
  async find(ownerId: string, id: string): Promise<WebhookEndpointView | null> {
    const rows = await this.db.query<RawEndpoint>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints w JOIN projects p ON p.id = w.project_id AND ${ownedBy('p', '$2')} WHERE w.id = $1`,
      [id, ownerId],
    );
    return rows[0] ? toEndpoint(rows[0]) : null;
  }

  /** A page of a project's endpoints, oldest first, with the total. */
  async list(projectId: number, limit: number, offset: number): Promise<{ rows: WebhookEndpointView[]; total: number }> {
    const [rows, [count]] = await Promise.all([
      this.db.query<RawEndpoint>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints w WHERE w.project_id = $1 ORDER BY w.seq LIMIT $2 OFFSET $3`, [projectId, limit, offset]),
      this.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM webhook_endpoints WHERE project_id = $1`, [projectId]),
    ]);
    return { rows: rows.map(toEndpoint), total: Number(count.n) };
  }

  /** Deletes the owner's endpoint with its pending deliveries and its log; false when it has none by that id. */
  async delete(ownerId: string, id: string): Promise<boolean> {
    const rows = await this.db.query(
      `DELETE FROM webhook_endpoints w USING projects p WHERE w.id = $1 AND p.id = w.project_id AND ${ownedBy('p', '$2')} RETURNING w.id`,
      [id, ownerId],
    );
    return rows.length > 0;
  }

  /** A page of an endpoint's delivery attempts, newest first by when each was made (CONTRACT §16), with the total. */
  async deliveries(endpointId: string, limit: number, offset: number): Promise<{ rows: WebhookDeliveryView[]; total: number }> {
    const [rows, [count]] = await Promise.all([
      this.db.query<RawDelivery>(
        `SELECT id, event_id, attempt, status, response_status, error, created_at
           FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at DESC, seq DESC LIMIT $2 OFFSET $3`,
        [endpointId, limit, offset],
      ),
      this.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM webhook_deliveries WHERE endpoint_id = $1`, [endpointId]),
    ]);
    return { rows: rows.map(toDelivery), total: Number(count.n) };
  }
}

interface RawEndpoint {
  id: string;
  project_id: number;
  url: string;
  types: WebhookEventType[] | null;
  created_at: Date | string;
}

interface RawDelivery {
  id: string;
  event_id: string;
  attempt: number;
  status: 'succeeded' | 'failed';
  response_status: number | null;
  error: string | null;
  created_at: Date;
}

function toEndpoint(r: RawEndpoint): WebhookEndpointView {
  // NULL types: every type, including any added later
  return { id: r.id, projectId: r.project_id, url: r.url, types: r.types ?? [...EVENT_TYPES], createdAt: new Date(r.created_at) };
}

function toDelivery(r: RawDelivery): WebhookDeliveryView {
  return { id: r.id, eventId: r.event_id, attempt: r.attempt, status: r.status, responseStatus: r.response_status, error: r.error, createdAt: r.created_at };
}

/** Sample calls: src/queries/webhook-endpoint.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new WebhookEndpointRepository(db),
  calls: {
    insert: (r) => r.insert(SAMPLE.projectId, 'https://example.com/hook', null, 'secret', 10),
    find: (r) => r.find(SAMPLE.owner, SAMPLE.id),
    list: (r) => r.list(SAMPLE.projectId, 20, 0),
    delete: (r) => r.delete(SAMPLE.owner, SAMPLE.id),
    deliveries: (r) => r.deliveries(SAMPLE.id, 20, 0),
  },
});
