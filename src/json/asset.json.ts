import { z } from 'zod';
import type { AssetView } from '../domain/assets/asset.types.js';

/** An asset (a currency of a project, CONTRACT §3). */
export const AssetBody = z
  .object({
    id: z.string(),
    name: z.string(),
    symbol: z.string(),
    fractions: z.number().int(),
    expiresAfterSeconds: z.number().int().nullable(),
    owner: z.string(),
    projectId: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Asset' });

export function assetJson(asset: AssetView): z.infer<typeof AssetBody> {
  return {
    id: asset.id,
    name: asset.name,
    symbol: asset.symbol,
    fractions: asset.fractions,
    expiresAfterSeconds: asset.expiresAfterSeconds,
    owner: asset.ownerId,
    projectId: asset.projectId,
    created_at: asset.createdAt.toISOString(),
    updated_at: asset.updatedAt.toISOString(),
  };
}
