import type { EntityManager } from '@mikro-orm/postgresql';

/** The SQL of asset rules that the unit of work cannot express: locks, cross-project checks. */

/** Locks the caller's project for an asset creation (quota count, first asset); null when not the caller's. */
export async function lockProject(em: EntityManager, ownerId: string, projectId: number): Promise<{ assetId: string | null } | null> {
  const [row] = await em.execute<{ asset_id: string | null }[]>(
    'SELECT asset_id FROM projects WHERE id = ? AND owner_id = ? FOR NO KEY UPDATE',
    [projectId, ownerId],
  );
  return row ? { assetId: row.asset_id } : null;
}

/** Locks the asset's project and every project sharing the asset as primary, in id order (no deadlocks). */
export async function lockProjectsUsing(em: EntityManager, ownerId: string, projectId: number, assetId: string): Promise<void> {
  await em.execute('SELECT id FROM projects WHERE owner_id = ? AND (id = ? OR asset_id = ?) ORDER BY id FOR NO KEY UPDATE', [ownerId, projectId, assetId]);
}

/**
 * Whether `symbol` is already a currency of `projectId` (its own assets and its shared primary
 * asset) or, when `assetId` is given, of a project sharing that asset as its primary one.
 * `assetId` itself is ignored (renaming an asset to its own symbol is no clash).
 */
export async function symbolTaken(em: EntityManager, ownerId: string, projectId: number, symbol: string, assetId: string | null): Promise<boolean> {
  const rows = await em.execute(
    `SELECT 1 FROM projects p JOIN assets a ON a.project_id = p.id OR a.id = p.asset_id
      WHERE p.owner_id = ? AND (p.id = ? OR p.asset_id = ?::uuid) AND a.id IS DISTINCT FROM ?::uuid AND a.symbol = ?
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
export async function hasPostings(em: EntityManager, assetId: string): Promise<boolean> {
  const rows = await em.execute('SELECT 1 FROM balances WHERE asset_id = ? LIMIT 1', [assetId]);
  return rows.length > 0;
}

/** Every project using `assetId` as primary falls back to its oldest remaining own asset, or null. */
export async function reassignPrimary(em: EntityManager, ownerId: string, assetId: string): Promise<void> {
  await em.execute(
    `UPDATE projects p
        SET asset_id = (SELECT a.id FROM assets a WHERE a.project_id = p.id AND a.id <> ? ORDER BY a.seq LIMIT 1),
            updated_at = now()
      WHERE p.owner_id = ? AND p.asset_id = ?`,
    [assetId, ownerId, assetId],
  );
}
