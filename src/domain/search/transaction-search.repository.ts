import type { Readable } from 'node:stream';
import type { Database } from '../../db/database.js';
import { balanceAfter, HISTORY_COLUMNS, HISTORY_JOINS, toHistory, type RawHistory } from '../ledger/ledger.sql.js';
import { EXPORT_CURSOR, ExportRows } from './export-rows.js';
import type { HistoryRow } from '../ledger/ledger.types.js';
import { ownedBy } from '../ownership/ownership.sql.js';
import type { ResolvedFilter, Side } from './transaction-search.types.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

/** Positional parameters of one generated statement. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown, type: string): string {
    this.values.push(value);
    return `$${this.values.length}::${type}`;
  }
}

/** The exact number of minor units of a major-unit bound for row `t`'s asset (numeric: no float). */
const minorBound = (bound: string): string => `${bound} * (SELECT power(10::numeric, x.fractions) FROM assets x WHERE x.id = t.asset_id)`;

function sideCondition(column: 'from' | 'to', side: Side, params: Params): string {
  if ('wallet' in side) return `t.${column}_wallet_id = ${params.add(side.wallet, 'uuid')}`;
  if (column === 'from') return side.reserved === '@mint' ? `t.from_wallet_id IS NULL` : 'false';
  // no receiving wallet: an expiry went to @expired, any other row (a seed's reversal) back to @mint
  return side.reserved === '@expired' ? `(t.to_wallet_id IS NULL AND t.kind = 'expiry')` : `(t.to_wallet_id IS NULL AND t.kind <> 'expiry')`;
}

/**
 * Every filter but the wallet's sides, as SQL conditions on `t`. Each one matches an index
 * (migration 20261126150000): the project and date, a side and date, the reference
 * (text_pattern_ops, so a prefix is a range scan), `reverses`, and metadata containment (GIN,
 * jsonb_path_ops, over the rows that have metadata).
 */
function conditions(filter: ResolvedFilter, params: Params): string[] {
  const where = [`t.project_id = ${params.add(filter.projectId, 'int')}`];
  if (filter.from) where.push(sideCondition('from', filter.from, params));
  if (filter.to) where.push(sideCondition('to', filter.to, params));
  if (filter.assetId) where.push(`t.asset_id = ${params.add(filter.assetId, 'uuid')}`);
  if (filter.minAmount !== null) where.push(`t.amount >= ${minorBound(params.add(filter.minAmount, 'numeric'))}`);
  if (filter.maxAmount !== null) where.push(`t.amount <= ${minorBound(params.add(filter.maxAmount, 'numeric'))}`);
  if (filter.since) where.push(`t.created_at >= ${params.add(filter.since, 'timestamptz')}`);
  if (filter.until) where.push(`t.created_at < ${params.add(filter.until, 'timestamptz')}`);
  if (filter.reference !== null) where.push(`t.reference = ${params.add(filter.reference, 'text')}`);
  if (filter.referencePrefix !== null) where.push(`t.reference LIKE ${params.add(filter.referencePrefix, 'text')}`);
  if (filter.reverses !== null) where.push(`t.reverses = ${params.add(filter.reverses, 'uuid')}`);
  if (filter.metadata.length) where.push('t.metadata IS NOT NULL');
  for (const pair of filter.metadata) {
    // containment finds the candidates through the index; jsonb compares numbers by value (5.0 = 5),
    // so the value's own JSON text (kept by the json column) decides: 5 matches "5", 5.0 "5.0"
    const contains = pair.alternatives.map((json) => `t.metadata::jsonb @> ${params.add(json, 'jsonb')}`).join(' OR ');
    const key = params.add(pair.key, 'text');
    where.push(`(${contains}) AND json_typeof(t.metadata -> ${key}) IN ('string', 'number', 'boolean') AND t.metadata ->> ${key} = ${params.add(pair.value, 'text')}`);
  }
  if (filter.before) where.push(`(t.created_at, t.seq) < (${params.add(filter.before.date, 'timestamptz')}, ${params.add(filter.before.seq, 'bigint')})`);
  return where;
}

const NEWEST_FIRST = 't.created_at DESC, t.seq DESC';

/** The search statement (exported for the plans in docs/decisions/transaction-search-and-export.md and bench/reads/search-plans.mjs). */
export function searchStatement(filter: ResolvedFilter, limit: number): { text: string; values: unknown[] } {
  const params = new Params();
  const where = conditions(filter, params);
  const n = params.add(limit, 'int');
  let rows: string;
  let balance: string;
  if (filter.walletId) {
    // Either side, each of the wallet's currencies: the as-of indexes (wallet, asset, date, seq) read
    // newest first, a page at most from each, then merged, so a wallet's long history is never
    // scanned past the page (an OR would read and sort all of it). Reusing those indexes rather
    // than a (wallet, date) pair of its own keeps a posting's index writes as they were.
    // `created_at > '-infinity'` is their partial predicate (true of every row).
    const wallet = params.add(filter.walletId, 'uuid');
    const side = (column: string) =>
      `(SELECT s.* FROM balances b CROSS JOIN LATERAL (
          SELECT t.* FROM transactions t
           WHERE t.${column} = ${wallet} AND t.asset_id = b.asset_id AND t.created_at > '-infinity' AND ${where.join(' AND ')}
           ORDER BY ${NEWEST_FIRST} LIMIT ${n}) s
         WHERE b.wallet_id = ${wallet})`;
    rows = `(SELECT u.* FROM (${side('from_wallet_id')} UNION ALL ${side('to_wallet_id')}) u ORDER BY u.created_at DESC, u.seq DESC LIMIT ${n})`;
    balance = balanceAfter(wallet);
  } else {
    rows = `(SELECT t.* FROM transactions t WHERE ${where.join(' AND ')} ORDER BY ${NEWEST_FIRST} LIMIT ${n})`;
    // as POST /transactions answers it: the sender's, a seed's the seeded wallet's
    balance = 'coalesce(t.from_balance, t.to_balance)';
  }
  const text = `SELECT coalesce(t.from_wallet_id, t.to_wallet_id) AS wallet_id, ${HISTORY_COLUMNS}, ${balance}::text AS balance
  FROM ${rows} t ${HISTORY_JOINS}
 ORDER BY ${NEWEST_FIRST}`;
  return { text, values: params.values };
}

/** The export statement: the project's transactions in a date range, oldest first, as POST /transactions shows them. */
export function exportStatement(projectId: number, since: Date | null, until: Date | null): { text: string; values: unknown[] } {
  const params = new Params();
  const where = [`t.project_id = ${params.add(projectId, 'int')}`];
  if (since) where.push(`t.created_at >= ${params.add(since, 'timestamptz')}`);
  if (until) where.push(`t.created_at < ${params.add(until, 'timestamptz')}`);
  const text = `SELECT coalesce(t.from_wallet_id, t.to_wallet_id) AS wallet_id, ${HISTORY_COLUMNS}, coalesce(t.from_balance, t.to_balance)::text AS balance
  FROM transactions t ${HISTORY_JOINS}
 WHERE ${where.join(' AND ')}
 ORDER BY t.created_at, t.seq`;
  return { text, values: params.values };
}

/** How an export's transaction is opened (TransactionSearchRepository.openExport). */
export interface ExportOptions {
  /** The idle_in_transaction_session_timeout of the export's transaction: a consumer that stops for this long loses its connection. */
  idleInTransactionMs: number;
  /** Set when the client went away: the connection, once obtained, goes straight back. */
  signal?: AbortSignal;
  /** Runs once the export's connection is back in the pool (or discarded), on every path. */
  onReleased: () => void;
}

export class TransactionSearchRepository {
  constructor(private readonly db: Database) {}

  async search(filter: ResolvedFilter, limit: number): Promise<HistoryRow[]> {
    const { text, values } = searchStatement(filter, limit);
    const rows = await this.db.query<RawHistory>(text, values);
    return rows.map(toHistory);
  }

  /** The caller's wallet of `projectId` named by `ref` (an id wins over an address), or null. */
  async walletOf(projectId: number, ref: string, refAsId: string | null): Promise<string | null> {
    const [row] = await this.db.query<{ id: string }>(
      `SELECT id FROM wallets WHERE project_id = $1 AND (id = $2::uuid OR address = $3) ORDER BY (id = $2::uuid) DESC NULLS LAST LIMIT 1`,
      [projectId, refAsId, ref],
    );
    return row?.id ?? null;
  }

  /** A currency of the project by symbol (its own asset first, else a primary asset it shares), or null. */
  async assetOf(projectId: number, symbol: string): Promise<{ id: string; fractions: number } | null> {
    const [row] = await this.db.query<{ id: string; fractions: number }>(
      `SELECT a.id, a.fractions FROM projects p JOIN assets a ON a.project_id = p.id OR a.id = p.asset_id
        WHERE p.id = $1 AND a.symbol = $2 ORDER BY (a.project_id = p.id) DESC LIMIT 1`,
      [projectId, symbol],
    );
    return row ?? null;
  }

  /**
   * The project's transactions in the range, oldest first, as a stream of rows (ExportRows) read
   * through a cursor as the consumer asks for them, from one snapshot: a REPEATABLE READ, READ
   * ONLY transaction whose first statement (the ownership check) fixes it. Null, the transaction
   * ended, when the project is not the owner's. On every path but the stream's, the connection
   * is given back (and `onReleased` runs) before this returns or throws; the stream gives it back
   * itself (src/domain/search/export-rows.ts).
   */
  async openExport(ownerId: string, projectId: number, since: Date | null, until: Date | null, options: ExportOptions): Promise<Readable | null> {
    const client = await this.db.pool.connect();
    let released = false;
    const release = (broken?: Error) => {
      if (released) return;
      released = true;
      client.release(broken);
      options.onReleased();
    };
    // queued behind a full pool, the client may have left before the connection came: it goes straight back
    if (options.signal?.aborted) {
      release();
      options.signal.throwIfAborted();
    }
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await client.query(`SET LOCAL idle_in_transaction_session_timeout = ${Math.trunc(options.idleInTransactionMs)}`);
      const owned = await client.query(`SELECT 1 FROM projects p WHERE p.id = $1 AND ${ownedBy('p', '$2')}`, [projectId, ownerId]);
      if (owned.rowCount === 0) {
        await client.query('ROLLBACK');
        release();
        return null;
      }
      const { text, values } = exportStatement(projectId, since, until);
      await client.query(`DECLARE ${EXPORT_CURSOR} NO SCROLL CURSOR FOR ${text}`, values);
      options.signal?.throwIfAborted();
    } catch (error) {
      // after BEGIN the connection is in a transaction: discarded rather than rolled back here
      release(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
    return new ExportRows(client, options.onReleased);
  }
}

/** Sample calls: src/queries/transaction-search.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
const FILTER: ResolvedFilter = {
  projectId: SAMPLE.projectId,
  walletId: null,
  from: null,
  to: null,
  assetId: null,
  minAmount: null,
  maxAmount: null,
  since: null,
  until: null,
  reference: null,
  referencePrefix: null,
  reverses: null,
  metadata: [],
  before: null,
};
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new TransactionSearchRepository(db),
  calls: {
    search: (r) => r.search(FILTER, 20),
    'search (one wallet, every filter)': (r) =>
      r.search(
        {
          ...FILTER,
          walletId: SAMPLE.id,
          from: { wallet: SAMPLE.id },
          to: { reserved: '@expired' },
          assetId: SAMPLE.id,
          minAmount: '1',
          maxAmount: '10.5',
          since: SAMPLE.at,
          until: SAMPLE.at,
          reference: 'ref',
          referencePrefix: 're%',
          reverses: SAMPLE.id,
          metadata: [{ key: 'tier', value: '5', alternatives: ['{"tier":"5"}', '{"tier":5}'] }],
          before: { date: SAMPLE.at, seq: '10' },
        },
        20,
      ),
    walletOf: (r) => r.walletOf(SAMPLE.projectId, 'alice', null),
    assetOf: (r) => r.assetOf(SAMPLE.projectId, 'PTS'),
    // a project of the owner's, else the export stops at the ownership check; the empty project's stream is read to its end (its cursor, its COMMIT)
    openExport: async (r, { unrecorded }) => {
      await unrecorded.query(`INSERT INTO owners (id, plan_code, subscription_code) VALUES ($1, 'free', 'free') ON CONFLICT (id) DO NOTHING`, [SAMPLE.owner]);
      await unrecorded.query(`INSERT INTO projects (id, owner_id, name) VALUES ($1, $2, 'sample')`, [SAMPLE.projectId, SAMPLE.owner]);
      try {
        const rows = await r.openExport(SAMPLE.owner, SAMPLE.projectId, SAMPLE.at, null, { idleInTransactionMs: 60_000, onReleased: () => undefined });
        if (rows) for await (const _row of rows); // none: the sample project has no transaction
      } finally {
        await unrecorded.query(`DELETE FROM projects WHERE id = $1`, [SAMPLE.projectId]);
      }
    },
  },
});
