import type { EntityManager } from '@mikro-orm/postgresql';
import type { Database } from '../../db/database.js';
import { ownedBy } from '../ownership/ownership.sql.js';
import type { WalletSlice, WalletStatus, WalletType } from './wallet.types.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

interface SliceRow {
  project_id: number;
  total: string;
  id: string | null;
  seq: string | null;
  owner_id: string;
  address: string;
  type: WalletType;
  status: WalletStatus;
  group_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Wallets `w` of a project, of one type unless `type` is NULL (SQL expressions); paged by `w.seq`. Shared with the SQL plans of GraphQL reads. */
export const walletsOfProject = (projectId: string, type: string): string => `w.project_id = ${projectId} AND (${type} IS NULL OR w.type = ${type})`;

/**
 * The wallet SQL the unit of work cannot express. Statements that must see and join the caller's
 * ORM transaction (the checks of a status change, under the wallet's row lock) take it as `tx`.
 */
export class WalletRepository {
  constructor(private readonly db: Database) {}

  /** Whether any balance of the wallet is not zero, above or below (closing needs every balance at zero; a credit line goes below, §28). */
  async holdsFunds(tx: EntityManager, walletId: string): Promise<boolean> {
    const rows = await tx.execute('SELECT 1 FROM balances WHERE wallet_id = ? AND amount <> 0 LIMIT 1', [walletId]);
    return rows.length > 0;
  }

  /** Whether the wallet has a pending, unexpired hold on either side (it cannot be closed then). */
  async hasPendingHolds(tx: EntityManager, projectId: number, walletId: string): Promise<boolean> {
    const rows = await tx.execute(
      `SELECT 1 FROM holds h
        WHERE h.project_id = ? AND (h.from_wallet_id = ? OR h.to_wallet_id = ?)
          AND h.status = 'pending' AND NOT holds_expired(h, now())
        LIMIT 1`,
      [projectId, walletId, walletId],
    );
    return rows.length > 0;
  }

  /**
   * For many projects at once (one statement), each project's wallets after a cursor in creation
   * order, `first + 1` of them to tell whether a next page exists, with the project's total.
   */
  async slices(ownerId: string, projectIds: number[], type: WalletType | null, first: number, afterSeq: string | null): Promise<Map<number, WalletSlice>> {
    const rows = await this.db.query<SliceRow>(
      `SELECT x.project_id, c.total::text AS total, w.id, w.seq::text AS seq, w.owner_id, w.address, w.type, w.status, w.group_id, w.created_at, w.updated_at
         FROM unnest($1::int[]) AS x(project_id)
         JOIN projects p ON p.id = x.project_id AND ${ownedBy('p', '$2')}
         CROSS JOIN LATERAL (
           SELECT count(*) AS total FROM wallets w WHERE ${walletsOfProject('x.project_id', '$3::text')}
         ) c
         LEFT JOIN LATERAL (
           SELECT * FROM wallets w
            WHERE ${walletsOfProject('x.project_id', '$3::text')} AND ($4::bigint IS NULL OR w.seq > $4)
            ORDER BY w.seq LIMIT $5
         ) w ON true
        ORDER BY x.project_id, w.seq`,
      [projectIds, ownerId, type, afterSeq, first + 1],
    );
    const slices = new Map<number, WalletSlice>();
    for (const row of rows) {
      let slice = slices.get(row.project_id);
      if (!slice) {
        slice = { edges: [], totalCount: Number(row.total), hasNextPage: false };
        slices.set(row.project_id, slice);
      }
      if (row.id === null || row.seq === null) continue;
      if (slice.edges.length === first) {
        slice.hasNextPage = true;
        continue;
      }
      slice.edges.push({
        cursor: row.seq,
        node: {
          id: row.id,
          projectId: row.project_id,
          ownerId: row.owner_id,
          address: row.address,
          type: row.type,
          status: row.status,
          groupId: row.group_id,
          createdAt: row.created_at,
          updatedAt: row.updated_at,
        },
      });
    }
    return slices;
  }
}

/** Sample calls: src/queries/wallet.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new WalletRepository(db),
  calls: {
    holdsFunds: (r, { em }) => r.holdsFunds(em, SAMPLE.id),
    hasPendingHolds: (r, { em }) => r.hasPendingHolds(em, SAMPLE.projectId, SAMPLE.id),
    slices: (r) => r.slices(SAMPLE.owner, [SAMPLE.projectId], 'customer', 20, null),
  },
});
