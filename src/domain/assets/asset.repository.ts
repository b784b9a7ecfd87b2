import type { EntityManager } from '@mikro-orm/postgresql';
import { ownedBy } from '../ownership/ownership.sql.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

/**
 * The SQL of asset rules that the unit of work cannot express: locks, cross-project checks.
 * Built over the caller's unit of work (`new AssetRepository(em)` inside its transaction): every
 * statement here belongs to that transaction, under the locks it took.
 */
export class AssetRepository {
  constructor(private readonly em: EntityManager) {}

  /** Locks the caller's project for an asset creation (quota count, first asset); null when not the caller's. */
  async lockProject(ownerId: string, projectId: number): Promise<{ assetId: string | null } | null> {
    const [row] = await this.em.execute<{ asset_id: string | null }[]>(
      `SELECT asset_id FROM projects p WHERE p.id = ? AND ${ownedBy('p', '?')} FOR NO KEY UPDATE`,
      [projectId, ownerId],
    );
    return row ? { assetId: row.asset_id } : null;
  }

  /** Locks the asset's project and every project sharing the asset as primary, in id order (no deadlocks). */
  async lockProjectsUsing(ownerId: string, projectId: number, assetId: string): Promise<void> {
    await this.em.execute(`SELECT id FROM projects p WHERE ${ownedBy('p', '?')} AND (p.id = ? OR p.asset_id = ?) ORDER BY p.id FOR NO KEY UPDATE`, [ownerId, projectId, assetId]);
  }

  /**
   * Whether `symbol` is already a currency of `projectId` (its own assets and its shared primary
   * asset) or, when `assetId` is given, of a project sharing that asset as its primary one.
   * `assetId` itself is ignored (renaming an asset to its own symbol is no clash).
   */
  async symbolTaken(ownerId: string, projectId: number, symbol: string, assetId: string | null): Promise<boolean> {
    const rows = await this.em.execute(
      `SELECT 1 FROM projects p JOIN assets a ON a.project_id = p.id OR a.id = p.asset_id
        WHERE ${ownedBy('p', '?')} AND (p.id = ? OR p.asset_id = ?::uuid) AND a.id IS DISTINCT FROM ?::uuid AND a.symbol = ?
        LIMIT 1`,
      [ownerId, projectId, assetId, assetId, symbol],
    );
    return rows.length > 0;
  }

  /**
   * "Has transactions" (or holds: a hold needs its sender's funded balance row in the asset, so an
   * asset with holds always has balance rows): balances(asset_id) is indexed and a balance row exists for an asset exactly
   * when a posting touched it, which transactions(asset_id) (not indexed) would answer slowly.
   */
  async hasPostings(assetId: string): Promise<boolean> {
    const rows = await this.em.execute('SELECT 1 FROM balances WHERE asset_id = ? LIMIT 1', [assetId]);
    return rows.length > 0;
  }

  /**
   * Whether a wallet has a credit line in the asset or is below zero in it (CONTRACT §28): such an
   * asset cannot be given an expiry (lots assume balances at or above zero). The caller holds the
   * asset FOR UPDATE, which a credit line's setting waits on (FOR KEY SHARE).
   */
  async hasCreditLines(assetId: string): Promise<boolean> {
    const rows = await this.em.execute('SELECT 1 FROM balances WHERE asset_id = ? AND (credit_limit > 0 OR amount < 0) LIMIT 1', [assetId]);
    return rows.length > 0;
  }

  /** Every project using `assetId` as primary falls back to its oldest remaining own asset, or null. */
  async reassignPrimary(ownerId: string, assetId: string): Promise<void> {
    await this.em.execute(
      `UPDATE projects p
          SET asset_id = (SELECT a.id FROM assets a WHERE a.project_id = p.id AND a.id <> ? ORDER BY a.seq LIMIT 1),
              updated_at = now()
        WHERE ${ownedBy('p', '?')} AND p.asset_id = ?`,
      [assetId, ownerId, assetId],
    );
  }
}

/** Sample calls: src/queries/asset.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
export const SQL_SAMPLES = sqlSamples({
  open: (_db, em) => new AssetRepository(em),
  calls: {
    lockProject: (r) => r.lockProject(SAMPLE.owner, SAMPLE.projectId),
    lockProjectsUsing: (r) => r.lockProjectsUsing(SAMPLE.owner, SAMPLE.projectId, SAMPLE.id),
    symbolTaken: (r) => r.symbolTaken(SAMPLE.owner, SAMPLE.projectId, 'PTS', SAMPLE.id),
    hasPostings: (r) => r.hasPostings(SAMPLE.id),
    hasCreditLines: (r) => r.hasCreditLines(SAMPLE.id),
    reassignPrimary: (r) => r.reassignPrimary(SAMPLE.owner, SAMPLE.id),
  },
});
