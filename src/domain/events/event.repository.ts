import type { EntityManager } from '@mikro-orm/postgresql';
import type { Database } from '../../db/database.js';
import type { EventRow, EventType } from './event.types.js';

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

/** Events numbered per statement (ledger_sequence_events); a larger backlog takes several. */
export const SEQUENCE_BATCH = 5_000;

/** Runs one statement and answers its rows: the pool's (Database.query) or a transaction's client. */
export type RunStatement = <T>(sql: string, params: unknown[]) => Promise<T[]>;

export interface NumberingOptions {
  /** Only when some of this project's events wait (a read that must see its writes). */
  projectId?: number;
  /** Asked after each full batch: false ends the numbering there (a sequencer being stopped). */
  more?: () => boolean;
  /** Told how many each statement numbered (metrics). */
  numbered?: (count: number) => void;
}

/**
 * The one place that numbers events: ledger_sequence_events, SEQUENCE_BATCH per statement, until
 * a statement numbers fewer — every event committed when it ran is numbered — or `more()` says
 * stop. Numbering is serialised in the database (an advisory lock), so callers on any instance,
 * in a transaction of their own or not, may call it at any time. With `projectId`, each
 * statement first probes the small partial index events_unsequenced_idx, so one statement when
 * none of that project's events waits.
 */
export async function numberCommitted(run: RunStatement, options: NumberingOptions = {}): Promise<void> {
  const { projectId, more = () => true, numbered } = options;
  const waiting = projectId === undefined ? null : `EXISTS (SELECT 1 FROM events WHERE seq IS NULL AND project_id = $2)`;
  const sql = waiting ? `SELECT CASE WHEN ${waiting} THEN ledger_sequence_events($1) ELSE 0 END AS n` : `SELECT ledger_sequence_events($1) AS n`;
  const params = waiting ? [SEQUENCE_BATCH, projectId] : [SEQUENCE_BATCH];
  for (;;) {
    const [row] = await run<{ n: number }>(sql, params);
    numbered?.(row.n);
    if (row.n < SEQUENCE_BATCH || !more()) return;
  }
}

/** The outbox (migrations/Migration20261124126000_events.ts): numbering and reading committed events. */
export class EventRepository {
  constructor(private readonly db: Database) {}

  /**
   * The outbox write of a change made through the ORM (a wallet's status), in the caller's
   * database transaction `tx`. Postings write theirs inside the posting routines (ledger_emit).
   */
  async emit(tx: EntityManager, event: { projectId: number; type: EventType; subjectId: string; status: string | null; at: Date }): Promise<void> {
    await tx.execute('SELECT ledger_emit(?, ?, ?, ?, ?)', [event.projectId, event.type, event.subjectId, event.status, event.at]);
  }

  /** Numbers every event committed now (numberCommitted, on a pooled connection). */
  sequenceCommitted(options: NumberingOptions = {}): Promise<void> {
    return numberCommitted((sql, params) => this.db.query(sql, params), options);
  }

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
