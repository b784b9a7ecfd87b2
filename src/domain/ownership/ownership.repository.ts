import type { Database } from '../../db/database.js';
import { ownedBy } from './ownership.sql.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

/** A wallet found among the caller's. */
export interface OwnedWallet {
  id: string;
  projectId: number;
  createdAt: Date;
}

/** The look-ups that answer "is it the caller's?" before a feature reads or writes (CONTRACT §18). */
export class OwnershipRepository {
  constructor(private readonly db: Database) {}

  async ownsProject(ownerId: string, projectId: number): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM projects p WHERE p.id = $1 AND ${ownedBy('p', '$2')}`, [projectId, ownerId]);
    return rows.length > 0;
  }

  /** The caller's wallet by id (`refAsId`; in `projectId` when given), else by address `ref` within `projectId`; an id wins. */
  async findWallet(ownerId: string, ref: string, refAsId: string | null, projectId: number | null): Promise<OwnedWallet | null> {
    const [row] = await this.db.query<{ id: string; project_id: number; created_at: Date }>(
      `SELECT w.id, w.project_id, w.created_at FROM wallets w
        WHERE ${ownedBy('w', '$1')} AND ((w.id = $2::uuid AND ($3::int IS NULL OR w.project_id = $3)) OR (w.project_id = $3 AND w.address = $4))
        ORDER BY (w.id = $2::uuid) DESC NULLS LAST LIMIT 1`,
      [ownerId, refAsId, projectId, ref],
    );
    return row ? { id: row.id, projectId: row.project_id, createdAt: row.created_at } : null;
  }
}

/** Sample calls: src/queries/ownership.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new OwnershipRepository(db),
  calls: {
    ownsProject: (r) => r.ownsProject(SAMPLE.owner, SAMPLE.projectId),
    findWallet: (r) => r.findWallet(SAMPLE.owner, SAMPLE.id, SAMPLE.id, SAMPLE.projectId),
  },
});
