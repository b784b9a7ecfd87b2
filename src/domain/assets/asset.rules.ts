import { z } from 'zod';
import { ProjectIdRule } from '../shared/ids.js';

/** Field rules of an asset (CONTRACT §3), shared by the service and the REST schemas. */
export const AssetNameRule = z.string().trim().min(1, 'must not be empty').max(200);
export const AssetSymbolRule = z.string().regex(/^[A-Z0-9_-]{1,12}$/, 'must be 1 to 12 of A-Z 0-9 _ -');
export const FractionsRule = z.number().int().min(0).max(18);

export const CreateAssetRules = z.strictObject({
  projectId: ProjectIdRule,
  name: AssetNameRule,
  symbol: AssetSymbolRule,
  fractions: FractionsRule,
});

/** `projectId` is optional (CONTRACT Clarifications §3); when given it must be the asset's project. */
export const UpdateAssetRules = z
  .strictObject({ projectId: ProjectIdRule.optional(), name: AssetNameRule.optional(), symbol: AssetSymbolRule.optional() })
  .refine((input) => input.name !== undefined || input.symbol !== undefined, { message: 'name or symbol is required', path: ['name'] });

export const AssetListRules = z.object({ projectId: ProjectIdRule.optional() });
