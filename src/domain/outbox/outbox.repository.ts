import type { EntityManager } from '@mikro-orm/postgresql';
import type { Database } from '../../db/database.js';
import type { EventType } from './event-type.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

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

/**
 * The outbox (migrations/Migration20261124126000_events.ts) on the ground floor of the domain:
 * every feature that changes something writes its event here, in its own transaction, and the
 * numbering makes the committed ones visible in order. Reading them is the events feature's.
 */
export class OutboxRepository {
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
}

/** Sample calls: src/queries/outbox.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new OutboxRepository(db),
  calls: {
    sequenceCommitted: (r) => r.sequenceCommitted(),
    'sequenceCommitted (a project)': (r) => r.sequenceCommitted({ projectId: SAMPLE.projectId }),
    emit: (r, { em }) => r.emit(em, { projectId: SAMPLE.projectId, type: 'wallet.status_changed', subjectId: SAMPLE.id, status: 'suspended', at: SAMPLE.at }),
  },
});
