import { z } from 'zod';
import { AssetNameRule, AssetSymbolRule, FractionsRule } from '../domain/assets/asset.rules.js';
import type { AssetView } from '../domain/assets/asset.types.js';
import { PageQuery, PaginationBody, ProjectId, ProjectIdQuery, Uuid } from './schemas.js';

export const AssetIdParams = z.strictObject({ id: Uuid });
export const AssetListQuery = z.strictObject({ projectId: ProjectIdQuery.optional(), ...PageQuery });

export const CreateAssetBody = z.strictObject({ name: AssetNameRule, symbol: AssetSymbolRule, fractions: FractionsRule, projectId: ProjectId });
export const UpdateAssetBody = z
  .strictObject({ name: AssetNameRule.optional(), symbol: AssetSymbolRule.optional(), projectId: ProjectId.optional() })
  .refine((body) => body.name !== undefined || body.symbol !== undefined, { message: 'name or symbol is required', path: ['name'] });

export const AssetBody = z
  .object({
    id: z.string(),
    name: z.string(),
    symbol: z.string(),
    fractions: z.number().int(),
    owner: z.string(),
    projectId: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Asset' });

export const AssetListBody = z.object({ assets: z.array(AssetBody), pagination: PaginationBody });
export const AssetDeletedBody = z.object({ id: z.string(), deleted: z.literal(true) });

export function assetJson(asset: AssetView): z.infer<typeof AssetBody> {
  return {
    id: asset.id,
    name: asset.name,
    symbol: asset.symbol,
    fractions: asset.fractions,
    owner: asset.ownerId,
    projectId: asset.projectId,
    created_at: asset.createdAt.toISOString(),
    updated_at: asset.updatedAt.toISOString(),
  };
}
