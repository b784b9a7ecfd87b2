import type { Database } from '../../db/database.js';
import { ownedBy } from '../ownership/ownership.sql.js';
import { isForeignKeyViolation } from '../shared/error-translation.js';
import type { BalanceMonitorView, CrossingView, MonitorField, MonitorOperator } from './monitor.types.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

const MONITOR_COLUMNS = `m.id, m.seq::text AS seq, m.project_id, m.wallet_id, m.asset_id, a.symbol, a.fractions, m.field, m.operator, m.value::text AS value, m.created_at`;

/** What a monitor names, resolved in the caller's project: null where the project has no such currency or wallet. */
export interface MonitorTarget {
  assetId: string | null;
  fractions: number;
  walletId: string | null;
}

export interface NewMonitor {
  projectId: number;
  assetId: string;
  walletId: string | null;
  field: MonitorField;
  operator: MonitorOperator;
  value: bigint;
}

/** SQL of the balance monitors (CONTRACT §20); the judging itself is src/domain/monitors/monitors_crossed.sql. */
export class BalanceMonitorRepository {
  constructor(private readonly db: Database) {}

  /**
   * The currency (`symbol`: the project's own asset, else the primary asset it shares) and the
   * wallet (`walletRef`: an id, else an address, in the project) of the owner's project; null when
   * the project is not the owner's.
   */
  async target(ownerId: string, projectId: number, symbol: string, walletRef: string | null, walletId: string | null): Promise<MonitorTarget | null> {
    const [row] = await this.db.query<{ asset_id: string | null; fractions: number | null; wallet_id: string | null }>(
      `SELECT a.id AS asset_id, a.fractions, w.id AS wallet_id
         FROM projects p
         LEFT JOIN LATERAL (
           (SELECT a.id, a.fractions FROM assets a WHERE a.project_id = p.id AND a.symbol = $3)
           UNION ALL
           (SELECT a.id, a.fractions FROM assets a WHERE a.id = p.asset_id AND a.symbol = $3)
           LIMIT 1) a ON true
         LEFT JOIN LATERAL (
           (SELECT w.id FROM wallets w WHERE w.id = $5::uuid AND w.project_id = p.id)
           UNION ALL
           (SELECT w.id FROM wallets w WHERE w.project_id = p.id AND w.address = $4)
           LIMIT 1) w ON true
        WHERE p.id = $1 AND ${ownedBy('p', '$2')}`,
      [projectId, ownerId, symbol, walletRef, walletId],
    );
    return row ? { assetId: row.asset_id, fractions: row.fractions ?? 0, walletId: row.wallet_id } : null;
  }

  /**
   * Creates the monitor and counts it on its asset (assets.monitors, which the posting routines
   * read to skip judging a currency nobody monitors), in one transaction. At most `limit` per
   * project (null when the project has them already): counted under the project row's lock, so
   * concurrent creations on any number of instances take turns and never pass it together
   * (FOR NO KEY UPDATE does not hold up postings). 'gone' when the asset was deleted meanwhile.
   */
  async insert(monitor: NewMonitor, limit: number): Promise<BalanceMonitorView | null | 'gone'> {
    try {
      return await this.db.transaction(async (client) => {
        await client.query(`SELECT 1 FROM projects WHERE id = $1 FOR NO KEY UPDATE`, [monitor.projectId]);
        // a statement of its own: its snapshot is taken once the lock is held
        const { rows: counted } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM balance_monitors WHERE project_id = $1`, [monitor.projectId]);
        if (counted[0].n >= limit) return null;
        const { rows } = await client.query<RawMonitor>(
          `WITH counted AS (UPDATE assets SET monitors = monitors + 1 WHERE id = $2 RETURNING id, symbol, fractions),
                m AS (INSERT INTO balance_monitors (project_id, asset_id, wallet_id, field, operator, value, created_at)
                      SELECT $1, counted.id, $3, $4, $5, $6, clock_timestamp()::timestamptz(3) FROM counted
                      RETURNING *)
           SELECT ${MONITOR_COLUMNS} FROM m JOIN counted a ON a.id = m.asset_id`,
          [monitor.projectId, monitor.assetId, monitor.walletId, monitor.field, monitor.operator, monitor.value.toString()],
        );
        return rows[0] ? toMonitor(rows[0]) : 'gone';
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) return 'gone';
      throw error;
    }
  }

  /** A page of a project's monitors (only `walletId`'s own when given), oldest first, with the total. */
  async list(projectId: number, walletId: string | null, limit: number, offset: number): Promise<{ rows: BalanceMonitorView[]; total: number }> {
    const where = `m.project_id = $1 AND ($2::uuid IS NULL OR m.wallet_id = $2)`;
    const [rows, [count]] = await Promise.all([
      this.db.query<RawMonitor>(`SELECT ${MONITOR_COLUMNS} FROM balance_monitors m JOIN assets a ON a.id = m.asset_id WHERE ${where} ORDER BY m.seq LIMIT $3 OFFSET $4`, [
        projectId,
        walletId,
        limit,
        offset,
      ]),
      this.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM balance_monitors m WHERE ${where}`, [projectId, walletId]),
    ]);
    return { rows: rows.map(toMonitor), total: Number(count.n) };
  }

  /** Deletes the owner's monitor and uncounts it on its asset, in one statement; false when the owner has none by that id. */
  async delete(ownerId: string, id: string): Promise<boolean> {
    const rows = await this.db.query(
      `WITH gone AS (DELETE FROM balance_monitors m USING projects p WHERE m.id = $1 AND p.id = m.project_id AND ${ownedBy('p', '$2')} RETURNING m.asset_id)
       UPDATE assets a SET monitors = a.monitors - 1 FROM gone WHERE a.id = gone.asset_id RETURNING a.id`,
      [id, ownerId],
    );
    return rows.length > 0;
  }

  /** Crossings by id, any owner (the events of CONTRACT §16, whose readers were checked against the project). */
  async crossingsByIds(ids: readonly string[]): Promise<CrossingView[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<RawCrossing>(
      `SELECT c.id, c.monitor_id, c.wallet_id, w.address, a.symbol, a.fractions, c.field, c.operator, c.value::text AS value,
              c.previous::text AS previous, c.current::text AS current, c.transaction_id, c.hold_id
         FROM balance_crossings c JOIN wallets w ON w.id = c.wallet_id JOIN assets a ON a.id = c.asset_id
        WHERE c.id = ANY ($1::uuid[])`,
      [ids],
    );
    return rows.map((r) => ({
      id: r.id,
      monitorId: r.monitor_id,
      walletId: r.wallet_id,
      address: r.address,
      symbol: r.symbol,
      fractions: r.fractions,
      field: r.field,
      operator: r.operator,
      value: BigInt(r.value),
      previous: BigInt(r.previous),
      current: BigInt(r.current),
      transactionId: r.transaction_id,
      holdId: r.hold_id,
    }));
  }
}

interface RawMonitor {
  id: string;
  seq: string;
  project_id: number;
  wallet_id: string | null;
  asset_id: string;
  symbol: string;
  fractions: number;
  field: MonitorField;
  operator: MonitorOperator;
  value: string;
  created_at: Date;
}

interface RawCrossing {
  id: string;
  monitor_id: string;
  wallet_id: string;
  address: string;
  symbol: string;
  fractions: number;
  field: MonitorField;
  operator: MonitorOperator;
  value: string;
  previous: string;
  current: string;
  transaction_id: string | null;
  hold_id: string | null;
}

function toMonitor(r: RawMonitor): BalanceMonitorView {
  return {
    id: r.id,
    seq: r.seq,
    projectId: r.project_id,
    walletId: r.wallet_id,
    assetId: r.asset_id,
    symbol: r.symbol,
    fractions: r.fractions,
    field: r.field,
    operator: r.operator,
    value: BigInt(r.value),
    createdAt: new Date(r.created_at),
  };
}

/** Sample calls: src/queries/monitor.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new BalanceMonitorRepository(db),
  calls: {
    target: (r) => r.target(SAMPLE.owner, SAMPLE.projectId, 'PTS', 'alice', SAMPLE.id),
    insert: (r) => r.insert({ projectId: SAMPLE.projectId, assetId: SAMPLE.id, walletId: null, field: 'balance', operator: 'lt', value: 1n }, 10),
    list: (r) => r.list(SAMPLE.projectId, SAMPLE.id, 20, 0),
    delete: (r) => r.delete(SAMPLE.owner, SAMPLE.id),
    crossingsByIds: (r) => r.crossingsByIds([SAMPLE.id]),
  },
});
