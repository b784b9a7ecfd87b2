import type { Database } from '../../db/database.js';
import type { EventType } from '../outbox/event-type.js';
import type { EventRow } from './event.types.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

const EVENT_COLUMNS = `e.id, e.seq::text AS seq, e.stream_pos::text AS stream_pos, e.type, e.project_id, p.owner_id, e.subject_id, e.status, e.created_at`;

interface RawEvent {
  id: string;
  seq: string;
  stream_pos: string;
  type: EventType;
  project_id: number;
  owner_id: string;
  subject_id: string;
  status: EventRow['status'];
  created_at: Date;
}

const toEventRow = (r: RawEvent): EventRow => ({
  id: r.id,
  seq: r.seq,
  streamPos: r.stream_pos,
  type: r.type,
  projectId: r.project_id,
  ownerId: r.owner_id,
  subjectId: r.subject_id,
  status: r.status,
  createdAt: r.created_at,
});

/** Reading the numbered events of the outbox (migrations/Migration20261124126000_events.ts); the write and the numbering are the outbox's (src/domain/outbox/). */
export class EventRepository {
  constructor(private readonly db: Database) {}

  /** A project's numbered events after `after`, oldest first, `limit` of them. */
  async page(projectId: number, after: string, limit: number): Promise<EventRow[]> {
    const rows = await this.db.query<RawEvent>(
      `SELECT ${EVENT_COLUMNS} FROM events e JOIN projects p ON p.id = e.project_id
        WHERE e.project_id = $1 AND e.seq > $2::bigint ORDER BY e.seq LIMIT $3`,
      [projectId, after, limit],
    );
    return rows.map(toEventRow);
  }

  /** How many events the project has numbered (its last seq). */
  async count(projectId: number): Promise<number> {
    const [row] = await this.db.query<{ n: string }>(`SELECT coalesce((SELECT last_seq FROM event_counters WHERE project_id = $1), 0)::text AS n`, [projectId]);
    return Number(row.n);
  }

  /** The whole stream after a position, in order, `limit` events (every instance follows it). */
  async stream(afterPos: string, limit: number): Promise<EventRow[]> {
    const rows = await this.db.query<RawEvent>(
      `SELECT ${EVENT_COLUMNS} FROM events e JOIN projects p ON p.id = e.project_id
        WHERE e.stream_pos > $1::bigint ORDER BY e.stream_pos LIMIT $2`,
      [afterPos, limit],
    );
    return rows.map(toEventRow);
  }

  /** Numbered events by id, in no particular order (the webhook deliveries render theirs). */
  async byIds(ids: readonly string[]): Promise<EventRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<RawEvent>(
      `SELECT ${EVENT_COLUMNS} FROM events e JOIN projects p ON p.id = e.project_id WHERE e.id = ANY ($1::uuid[]) AND e.stream_pos IS NOT NULL`,
      [ids],
    );
    return rows.map(toEventRow);
  }

  /** The stream's current end (0 when empty). */
  async streamTop(): Promise<string> {
    const [row] = await this.db.query<{ top: string }>(`SELECT coalesce(max(stream_pos), 0)::text AS top FROM events WHERE stream_pos IS NOT NULL`);
    return row.top;
  }
}

/** Sample calls: src/queries/event.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new EventRepository(db),
  calls: {
    page: (r) => r.page(SAMPLE.projectId, '0', 21),
    count: (r) => r.count(SAMPLE.projectId),
    stream: (r) => r.stream('0', 500),
    byIds: (r) => r.byIds([SAMPLE.id]),
    streamTop: (r) => r.streamTop(),
  },
});
