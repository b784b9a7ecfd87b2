import type { Database } from '../../db/database.js';
import { HISTORY_COLUMNS, HISTORY_JOINS, toHistory, type RawHistory } from '../ledger/ledger.sql.js';
import type { JournaledBalance, JournalEntry, JournalHead, NewEntry, SourceBatch, StoredEntry } from './journal.types.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

/** The events whose subject is a transaction: each transaction has exactly one (ledger_move, lots_*). */
const TRANSACTION_EVENTS = `('transaction.posted', 'points.expired')`;

/**
 * A transaction as the API prints it (the sender's balance; a seed's the seeded wallet's), `t`
 * joined by the caller's condition. Used as a LATERAL per source row: `OFFSET 0` keeps the planner
 * from pulling it up into a join, which it planned as a hash join over the WHOLE transactions table
 * (a sequential scan per writer turn and per verify chunk: 100 ms at 60,000 transactions, growing
 * with history; it made the journal cost 40 % of the transfers/s). Kept a subquery, each row is
 * one primary-key lookup.
 */
const TRANSACTION_OF = (condition: string) =>
  `SELECT coalesce(t.from_wallet_id, t.to_wallet_id) AS wallet_id, ${HISTORY_COLUMNS}, coalesce(t.from_balance, t.to_balance)::text AS balance
     FROM transactions t ${HISTORY_JOINS} WHERE ${condition} OFFSET 0`;

interface SourceRow extends RawHistory {
  turns: string;
  position: string | null;
  subject_type: string | null;
  head_seq: string | null;
  head_hash: string | null;
}

/**
 * What the writer reads in one statement (one snapshot): the cursor's `turns`; the next source
 * rows — the pre-outbox backlog first (it precedes every event), else the numbered events after
 * the cursor in stream order (commit order) — each with its transaction when it has one, and that
 * transaction's project's last entry. When nothing waits: the cursor's row alone.
 */
const NEXT = `
WITH backlog AS (
  SELECT pos AS position, 'backlog'::text AS subject_type, transaction_id AS subject_id FROM journal_backlog ORDER BY pos LIMIT $1
),
stream AS (
  SELECT stream_pos AS position, type AS subject_type, subject_id FROM events
   WHERE stream_pos > (SELECT stream_pos FROM journal_cursor) AND NOT EXISTS (SELECT 1 FROM backlog)
   ORDER BY stream_pos LIMIT $1
),
source AS (SELECT * FROM backlog UNION ALL SELECT * FROM stream)
SELECT c.turns::text AS turns, s.position::text AS position, s.subject_type, x.*, h.seq::text AS head_seq, encode(h.hash, 'hex') AS head_hash
  FROM journal_cursor c
  LEFT JOIN source s ON true
  LEFT JOIN LATERAL (${TRANSACTION_OF('t.id = s.subject_id')}) x ON s.subject_type IN ('backlog', 'transaction.posted', 'points.expired')
  LEFT JOIN LATERAL (SELECT seq, hash FROM journal WHERE project_id = x.project_id ORDER BY seq DESC LIMIT 1) h ON x.id IS NOT NULL
 ORDER BY s.position`;

/**
 * The writer's one write: the entries, and the cursor moved past the batch (the stream position
 * forward, or the backlog rows read deleted) — only if `turns` is still what the read saw; else
 * nothing (another instance wrote in between, from the same heads). A competing write waits for
 * the cursor row's lock, then finds `turns` moved.
 */
const WRITE = `
WITH moved AS (
  UPDATE journal_cursor SET turns = turns + 1, stream_pos = CASE WHEN $7 = 'stream' THEN $6::bigint ELSE stream_pos END
   WHERE turns = $8::bigint RETURNING 1
),
drained AS (DELETE FROM journal_backlog WHERE $7 = 'backlog' AND pos <= $6::bigint AND EXISTS (SELECT 1 FROM moved)),
written AS (
  INSERT INTO journal (project_id, seq, transaction_id, hash, prev_hash)
  SELECT project_id, seq, transaction_id, decode(hash, 'hex'), decode(prev_hash, 'hex')
    FROM unnest($1::int[], $2::bigint[], $3::uuid[], $4::text[], $5::text[]) AS e(project_id, seq, transaction_id, hash, prev_hash)
   WHERE EXISTS (SELECT 1 FROM moved)
)
SELECT count(*)::int AS n FROM moved`;

/** The journal's tables (Migration20261126172000_journal): the writer's statements and the readers'. */
export class JournalRepository {
  constructor(private readonly db: Database) {}

  /** The writer's read (NEXT): at most `limit` source rows; one statement, the cursor's row alone when nothing waits. */
  async next(limit: number): Promise<{ turns: string; batch: SourceBatch; heads: Map<number, JournalHead> }> {
    const rows = await this.db.query<SourceRow>(NEXT, [limit], 'journal_next');
    const read = rows.filter((r) => r.position !== null);
    const heads = new Map<number, JournalHead>();
    for (const r of read) if (r.head_seq !== null && r.head_hash !== null) heads.set(r.project_id, { seq: BigInt(r.head_seq), hash: r.head_hash });
    const batch: SourceBatch = {
      source: read.some((r) => r.subject_type === 'backlog') ? 'backlog' : 'stream',
      scanned: read.length,
      upTo: read.at(-1)?.position ?? null,
      // a source row without its transaction: an event about something else (or a row deleted behind the service's back)
      transactions: read.filter((r) => r.id !== null).map(toHistory),
    };
    return { turns: rows[0].turns, batch, heads };
  }

  /** The writer's write (WRITE): whether it applied (`turns` unchanged since the read). */
  async write(entries: NewEntry[], batch: SourceBatch, turns: string): Promise<boolean> {
    const values = [
      entries.map((e) => e.projectId),
      entries.map((e) => e.seq.toString()),
      entries.map((e) => e.transactionId),
      entries.map((e) => e.hash),
      entries.map((e) => e.prevHash),
      batch.upTo,
      batch.source,
      turns,
    ];
    const [row] = await this.db.query<{ n: number }>(WRITE, values, 'journal_write');
    return row.n === 1;
  }

  async projectExists(projectId: number): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM projects WHERE id = $1`, [projectId]);
    return rows.length > 0;
  }

  /** A project's entries after `after`, `limit` of them. */
  async page(projectId: number, after: string, limit: number): Promise<JournalEntry[]> {
    const rows = await this.db.query<{ seq: string; transaction_id: string; hash: string; prev_hash: string }>(
      `SELECT j.seq::text AS seq, j.transaction_id, encode(j.hash, 'hex') AS hash, encode(j.prev_hash, 'hex') AS prev_hash
         FROM journal j WHERE j.project_id = $1 AND j.seq > $2::bigint ORDER BY j.seq LIMIT $3`,
      [projectId, after, limit],
    );
    return rows.map((r) => ({ seq: r.seq, transactionId: r.transaction_id, hash: r.hash, prevHash: r.prev_hash }));
  }

  /** A project's last entry, or null when its journal is empty. */
  async head(projectId: number): Promise<JournalHead | null> {
    const [row] = await this.db.query<{ seq: string; hash: string }>(
      `SELECT j.seq::text AS seq, encode(j.hash, 'hex') AS hash FROM journal j WHERE j.project_id = $1 ORDER BY j.seq DESC LIMIT 1`,
      [projectId],
    );
    return row ? { seq: BigInt(row.seq), hash: row.hash } : null;
  }

  /**
   * Entries after `after` up to `upTo`, at most `limit`, each with its transaction as stored now
   * (null when the row is gone, or belongs to another project now).
   */
  async entries(projectId: number, after: bigint, upTo: bigint, limit: number): Promise<StoredEntry[]> {
    const rows = await this.db.query<RawHistory & { entry_seq: string; entry_transaction_id: string; entry_hash: string; entry_prev_hash: string }>(
      `SELECT j.seq::text AS entry_seq, j.transaction_id AS entry_transaction_id, encode(j.hash, 'hex') AS entry_hash, encode(j.prev_hash, 'hex') AS entry_prev_hash, x.*
         FROM journal j
         LEFT JOIN LATERAL (${TRANSACTION_OF('t.id = j.transaction_id AND t.project_id = j.project_id')}) x ON true
        WHERE j.project_id = $1 AND j.seq > $2::bigint AND j.seq <= $3::bigint
        ORDER BY j.seq LIMIT $4`,
      [projectId, after.toString(), upTo.toString(), limit],
    );
    return rows.map((r) => ({
      seq: r.entry_seq,
      transactionId: r.entry_transaction_id,
      hash: r.entry_hash,
      prevHash: r.entry_prev_hash,
      transaction: r.id === null ? null : toHistory(r),
    }));
  }

  /**
   * A page of the project's wallets (by address, after `afterAddress`), each balance row with its
   * stored amount less what the transactions after entry `lastSeq` moved: those journaled after it,
   * those whose event is not numbered or not journaled yet, and the backlog's. One statement, so one
   * snapshot: a posting committed meanwhile is in both the balance and the subtraction, or in neither.
   */
  async journaledBalances(projectId: number, lastSeq: bigint, afterAddress: string, limit: number): Promise<JournaledBalance[]> {
    const rows = await this.db.query<{ wallet_id: string; address: string; asset_id: string | null; amount: string | null }>(
      `WITH page AS (
         SELECT id, address FROM wallets WHERE project_id = $1 AND address > $3 ORDER BY address LIMIT $4
       ),
       later AS (
         SELECT transaction_id AS id FROM journal WHERE project_id = $1 AND seq > $2::bigint
         UNION ALL
         SELECT subject_id FROM events WHERE seq IS NULL AND project_id = $1 AND type IN ${TRANSACTION_EVENTS}
         UNION ALL
         SELECT subject_id FROM events WHERE stream_pos > (SELECT stream_pos FROM journal_cursor) AND project_id = $1 AND type IN ${TRANSACTION_EVENTS}
         UNION ALL
         SELECT transaction_id FROM journal_backlog WHERE project_id = $1
       ),
       moves AS (
         SELECT t.from_wallet_id AS wallet_id, t.asset_id, -t.amount AS delta FROM later l JOIN transactions t ON t.id = l.id WHERE t.from_wallet_id IS NOT NULL
         UNION ALL
         SELECT t.to_wallet_id, t.asset_id, t.amount FROM later l JOIN transactions t ON t.id = l.id WHERE t.to_wallet_id IS NOT NULL
       ),
       moved AS (SELECT wallet_id, asset_id, sum(delta) AS delta FROM moves GROUP BY wallet_id, asset_id)
       SELECT p.id AS wallet_id, p.address, b.asset_id, (b.amount - coalesce(m.delta, 0))::text AS amount
         FROM page p
         LEFT JOIN balances b ON b.wallet_id = p.id
         LEFT JOIN moved m ON m.wallet_id = b.wallet_id AND m.asset_id = b.asset_id
        ORDER BY p.address, b.asset_id`,
      [projectId, lastSeq.toString(), afterAddress, limit],
    );
    return rows.map((r) => ({ walletId: r.wallet_id, address: r.address, assetId: r.asset_id, amount: r.amount === null ? null : BigInt(r.amount) }));
  }
}

/** Sample calls: src/queries/journal.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new JournalRepository(db),
  calls: {
    next: (r) => r.next(100),
    write: (r) => r.write([], { source: 'stream', scanned: 0, upTo: '0', transactions: [] }, '0'),
    projectExists: (r) => r.projectExists(SAMPLE.projectId),
    page: (r) => r.page(SAMPLE.projectId, '0', 20),
    head: (r) => r.head(SAMPLE.projectId),
    entries: (r) => r.entries(SAMPLE.projectId, 0n, 10n, 20),
    journaledBalances: (r) => r.journaledBalances(SAMPLE.projectId, 10n, '', 20),
  },
});
