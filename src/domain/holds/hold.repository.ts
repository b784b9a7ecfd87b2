import type { Database } from '../../db/database.js';
import type { SweepRound } from '../shared/expiry-sweeper.js';
import { olderThan } from '../shared/paging.js';
import { toMovement, type RawMovement } from '../ledger/ledger.sql.js';
import { ownedBy } from '../ownership/ownership.sql.js';
import type { HoldStatus, HoldView } from './hold.types.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

/** A hold's status as of now: a pending hold past its expires_at reads `expired` (holds_expired.sql). */
const STATUS_NOW = `CASE WHEN holds_expired(h, now()) THEN 'expired' ELSE h.status END`;

/**
 * A hold's status and updated_at as of now: an expired hold reads `expired`, updated at its
 * expires_at, whether or not a posting has released it yet (the release writes exactly these
 * values).
 */
const HOLD_COLUMNS = `
  h.id, h.seq::text AS seq, h.project_id, h.asset_id, a.symbol, a.fractions, h.amount::text AS amount,
  h.from_wallet_id, h.to_wallet_id, wf.address AS from_address, wt.address AS to_address,
  ${STATUS_NOW} AS status,
  h.captured_amount::text AS captured_amount, h.transaction_id, h.expires_at, h.matures_at, h.created_at,
  CASE WHEN holds_expired(h, now()) THEN h.expires_at ELSE h.updated_at END AS updated_at,
  h.reference, h.metadata`;

const HOLD_JOINS = `
  JOIN assets a ON a.id = h.asset_id
  JOIN wallets wf ON wf.id = h.from_wallet_id
  JOIN wallets wt ON wt.id = h.to_wallet_id`;

/** The hold status filter as of now (SQL; `$n` is the wanted status or NULL for any). */
const statusIs = (param: string): string => `(${param}::text IS NULL OR (${STATUS_NOW}) = ${param})`;

export class HoldRepository {
  constructor(private readonly db: Database) {}

  /** The owner's holds among `ids` (malformed, foreign and unknown ids are absent). */
  async byIds(ownerId: string, ids: readonly string[]): Promise<HoldView[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<RawHold>(
      `SELECT ${HOLD_COLUMNS}
         FROM holds h
         JOIN projects p ON p.id = h.project_id AND ${ownedBy('p', '$2')}
         ${HOLD_JOINS}
        WHERE h.id = ANY ($1::uuid[])`,
      [ids, ownerId],
    );
    return rows.map(toHold);
  }

  /** Holds by id, any owner (for the events of CONTRACT §16, whose readers were checked against the project). */
  async anyByIds(ids: readonly string[]): Promise<HoldView[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<RawHold>(`SELECT ${HOLD_COLUMNS} FROM holds h ${HOLD_JOINS} WHERE h.id = ANY ($1::uuid[])`, [ids]);
    return rows.map(toHold);
  }

  /**
   * A window of a project's holds, newest first (`seq`), optionally of one wallet (either side) and
   * one status, older than `before` when given (keyset, windowOf); the total counts every match.
   */
  async list(projectId: number, walletId: string | null, status: HoldStatus | null, window: { limit: number; offset: number; before: string | null }): Promise<{ rows: HoldView[]; total: number }> {
    const where = `h.project_id = $1 AND ($2::uuid IS NULL OR h.from_wallet_id = $2 OR h.to_wallet_id = $2) AND ${statusIs('$3')}`;
    const [rows, [count]] = await Promise.all([
      this.db.query<RawHold>(
        `SELECT ${HOLD_COLUMNS} FROM holds h ${HOLD_JOINS} WHERE ${where} AND ${olderThan('h.seq', '$6::bigint')} ORDER BY h.seq DESC LIMIT $4 OFFSET $5`,
        [projectId, walletId, status, window.limit, window.offset, window.before],
      ),
      this.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM holds h WHERE ${where}`, [projectId, walletId, status]),
    ]);
    return { rows: rows.map(toHold), total: Number(count.n) };
  }

  /** The hold half of a sweeper round: releases the due holds of up to `batchSize` wallets (holds_sweep.sql, one database transaction). */
  async sweepDue(batchSize: number): Promise<SweepRound> {
    const [row] = await this.db.query<{ expired: number; released: number; busy: number; full_round: boolean; max_lag_ms: string | null }>(`SELECT * FROM holds_sweep($1)`, [batchSize]);
    return { expired: row.expired, released: row.released, skipped: row.busy, fullRound: row.full_round, maxLagMs: row.max_lag_ms === null ? null : Number(row.max_lag_ms) };
  }

  /** The projects that have maturing holds due now (CONTRACT §26): the one statement of the sweep that names no project, an index-only range of the due ones. */
  async projectsMaturing(): Promise<number[]> {
    const rows = await this.db.query<{ project_id: number }>(`SELECT DISTINCT h.project_id FROM holds h WHERE holds_maturity_due(h, now())`);
    return rows.map((row) => row.project_id);
  }

  /** One project's maturity round: captures up to `batchSize` due maturing holds whose wallets are free (holds_mature_sweep.sql, one database transaction). */
  async matureDue(projectId: number, batchSize: number): Promise<MaturityRound> {
    const [row] = await this.db.query<{ matured: number; refused: number; voided: number; busy: number; full_round: boolean; max_lag_ms: string | null }>(
      `SELECT * FROM holds_mature_sweep($1, $2)`,
      [projectId, batchSize],
    );
    return { matured: row.matured, refused: row.refused, voided: row.voided, busy: row.busy, fullRound: row.full_round, maxLagMs: row.max_lag_ms === null ? null : Number(row.max_lag_ms) };
  }
}

/** What one project's maturity round did (holds_mature_sweep.sql). */
export interface MaturityRound {
  matured: number;
  refused: number;
  voided: number;
  busy: number;
  fullRound: boolean;
  maxLagMs: number | null;
}

interface RawHold extends RawMovement<string> {
  from_address: string;
  to_address: string;
  status: HoldStatus;
  captured_amount: string;
  transaction_id: string | null;
  expires_at: Date | null;
  matures_at: Date | null;
  created_at: Date;
  updated_at: Date;
  reference: string | null;
  metadata: Record<string, unknown> | null;
}

function toHold(r: RawHold): HoldView {
  return {
    ...toMovement(r),
    from: r.from_address,
    to: r.to_address,
    status: r.status,
    capturedAmount: BigInt(r.captured_amount),
    transactionId: r.transaction_id,
    expiresAt: r.expires_at,
    maturesAt: r.matures_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    reference: r.reference,
    metadata: r.metadata ?? {},
  };
}

/** Sample calls: src/queries/hold.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new HoldRepository(db),
  calls: {
    byIds: (r) => r.byIds(SAMPLE.owner, [SAMPLE.id]),
    anyByIds: (r) => r.anyByIds([SAMPLE.id]),
    list: (r) => r.list(SAMPLE.projectId, SAMPLE.id, 'pending', { limit: 20, offset: 0, before: null }),
    sweepDue: (r) => r.sweepDue(500),
    projectsMaturing: (r) => r.projectsMaturing(),
    matureDue: (r) => r.matureDue(SAMPLE.projectId, 500),
  },
});
