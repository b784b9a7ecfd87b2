import type { Database } from '../../db/database.js';
import type { PayloadRenderer, WebhookPayload } from './delivery-worker.js';

/**
 * Until the events core's presenter lands: bodies with the event's envelope and `data` naming
 * only its subject. Replaced by the events core's renderer at the merge.
 */
export function provisionalPayloads(db: Database): PayloadRenderer {
  return async (eventIds) => {
    const rows = await db.query<{ id: string; type: string; created_at: Date; subject_id: string }>(
      `/* webhook-worker */ SELECT id, type, created_at, subject_id FROM events WHERE id = ANY ($1::uuid[])`,
      [eventIds],
    );
    return new Map(rows.map((r): [string, WebhookPayload] => [r.id, { id: r.id, type: r.type, created_at: r.created_at.toISOString(), data: { id: r.subject_id } }]));
  };
}
