import pg from 'pg';
import type { Database } from '../../db/database.js';
import { HISTORY_COLUMNS, HISTORY_JOINS, toHistory, type RawHistory } from '../ledger/ledger.repository.js';
import type { JournaledBalance, JournalEntry, JournalHead, NewEntry, SourceBatch, StoredEntry } from './journal.types.js';

/** The events whose subject is a transaction: each transaction has exactly one (ledger_move, lots_*). */
const TRANSACTION_EVENTS = `('transaction.posted', 'points.expired')`;

/** A transaction as the API prints it (the sender's balance; a seed's the seeded wallet's), `t` joined by the caller's condition. */
const TRANSACTION_OF = (condition: string) =>
  `SELECT coalesce(t.from_wallet_id, t.to_wallet_id) AS wallet_id, ${HISTORY_COLUMNS}, coalesce(t.from_balance, t.to_balance)::text AS balance
     FROM transactions t ${HISTORY_JOINS} WHERE ${condition}`;

/** timestamptz as Date on a transaction's own client (the pools keep them as text for the ORM). */
const TYPES = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.TIMESTAMPTZ && format !== 'binary' ? (value: string) => new Date(value) : pg.types.getTypeParser(oid, format),
};

interface SourceRow extends RawHistory {
  position: string;
  subject_type: string;
}

/**
 * The writer's turn: one database transaction that holds `journal_cursor`'s row, so every
 * instance's writer takes turns and each reads the heads and the cursor its predecessor committed.
 */
export class JournalTurn {
  constructor(
    private readonly client: pg.PoolClient,
    /** The stream position journaled so far. */
    readonly cursor: string,
  ) {}

  /**
   * The next transactions to journal, at most `limit` source rows: the pre-outbox backlog first
   * (it precedes every event), else the numbered events after the cursor, in stream order (commit
   * order), of which those about a transaction give their transaction.
   */
  async next(limit: number): Promise<SourceBatch> {
    const backlog = await this.client.query<SourceRow>({
      text: `SELECT b.pos::text AS position, 'backlog' AS subject_type, x.*
               FROM (SELECT pos, transaction_id FROM journal_backlog ORDER BY pos LIMIT $1) b
               LEFT JOIN LATERAL (${TRANSACTION_OF('t.id = b.transaction_id')}) x ON true
              ORDER BY b.pos`,
      values: [limit],
      types: TYPES,
    });
    if (backlog.rows.length) return batchOf('backlog', backlog.rows);
    const stream = await this.client.query<SourceRow>({
      text: `SELECT s.stream_pos::text AS position, s.type AS subject_type, x.*
               FROM (SELECT stream_pos, type, subject_id FROM events WHERE stream_pos > $1::bigint ORDER BY stream_pos LIMIT $2) s
               LEFT JOIN LATERAL (${TRANSACTION_OF('t.id = s.subject_id')}) x ON s.type IN ${TRANSACTION_EVENTS}
              ORDER BY s.stream_pos`,
      values: [this.cursor, limit],
      types: TYPES,
    });
    return batchOf('stream', stream.rows);
  }

  /** The last entry of each of `projectIds` that has one. */
  async heads(projectIds: number[]): Promise<Map<number, JournalHead>> {
    const { rows } = await this.client.query<{ project_id: number; seq: string; hash: string }>(
      `SELECT p.id AS project_id, h.seq::text AS seq, encode(h.hash, 'hex') AS hash
         FROM unnest($1::int[]) AS p(id)
         CROSS JOIN LATERAL (SELECT seq, hash FROM journal WHERE project_id = p.id ORDER BY seq DESC LIMIT 1) h`,
      [projectIds],
    );
    return new Map(rows.map((r) => [r.project_id, { seq: BigInt(r.seq), hash: r.hash }]));
  }

  /** Writes the entries and moves past the batch: the cursor forward, or the backlog rows read deleted. */
  async write(entries: NewEntry[], batch: SourceBatch): Promise<void> {
    const advance = batch.source === 'stream' ? `UPDATE journal_cursor SET stream_pos = $6::bigint` : `DELETE FROM journal_backlog WHERE pos <= $6::bigint`;
    await this.client.query(
      `WITH moved AS (${advance})
       INSERT INTO journal (project_id, seq, transaction_id, hash, prev_hash)
       SELECT project_id, seq, transaction_id, decode(hash, 'hex'), decode(prev_hash, 'hex')
         FROM unnest($1::int[], $2::bigint[], $3::uuid[], $4::text[], $5::text[]) AS e(project_id, seq, transaction_id, hash, prev_hash)`,
      [entries.map((e) => e.projectId), entries.map((e) => e.seq.toString()), entries.map((e) => e.transactionId), entries.map((e) => e.hash), entries.map((e) => e.prevHash), batch.upTo],
    );
  }
}

function batchOf(source: SourceBatch['source'], rows: SourceRow[]): SourceBatch {
  return {
    source,
    scanned: rows.length,
    upTo: rows.at(-1)?.position ?? null,
    // a source row without its transaction: an event about something else (or a row deleted behind the service's back)
    transactions: rows.filter((r) => r.id !== null).map(toHistory),
  };
}

/** The journal's tables (Migration20261126172000_journal): the writer's turns and the readers' statements. */
export class JournalRepository {
  constructor(private readonly db: Database) {}

  /** Whether anything waits to be journaled: one statement, two index probes. */
  async hasPending(): Promise<boolean> {
    const [row] = await this.db.query<{ pending: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM events WHERE stream_pos > (SELECT stream_pos FROM journal_cursor)) OR EXISTS (SELECT 1 FROM journal_backlog) AS pending`,
      [],
      'journal_pending',
    );
    return row.pending;
  }

  /** Runs `fn` as the one writer of every instance (FOR UPDATE on the cursor's row waits for the previous turn to commit). */
  async turn<T>(fn: (turn: JournalTurn) => Promise<T>): Promise<T> {
    return this.db.transaction(async (client) => {
      const { rows } = await client.query<{ stream_pos: string }>(`SELECT stream_pos::text AS stream_pos FROM journal_cursor FOR UPDATE`);
      return fn(new JournalTurn(client, rows[0].stream_pos));
    });
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
