import { z } from 'zod';
import { AssetNameRule, AssetSymbolRule, ExpiresAfterSecondsRule, FractionsRule } from '../domain/assets/asset.rules.js';
import { PaginationBody } from '../json/page.json.js';
import { AssetBody } from '../json/asset.json.js';
import { PageQuery, ProjectId, ProjectIdQuery, Uuid } from './schemas.js';

export const AssetIdParams = z.strictObject({ id: Uuid });
export const AssetListQuery = z.strictObject({ projectId: ProjectIdQuery.optional(), ...PageQuery });

const ExpiresAfterSeconds = ExpiresAfterSecondsRule.meta({ description: 'Seconds a credit to a customer wallet lives before it expires (1–315360000); null: never (CONTRACT §15)' });

export const CreateAssetBody = z.strictObject({
  name: AssetNameRule,
  symbol: AssetSymbolRule,
  fractions: FractionsRule,
  projectId: ProjectId,
  expiresAfterSeconds: ExpiresAfterSeconds.optional(),
}).meta({ id: 'CreateAssetRequest' });
export const UpdateAssetBody = z
  .strictObject({
    name: AssetNameRule.optional(),
    symbol: AssetSymbolRule.optional(),
    projectId: ProjectId.optional(),
    expiresAfterSeconds: ExpiresAfterSeconds.optional().meta({ description: 'Applies to credits posted after the change; existing lots keep their expiry' }),
  })
  .refine((body) => body.name !== undefined || body.symbol !== undefined || body.expiresAfterSeconds !== undefined, {
    message: 'name, symbol or expiresAfterSeconds is required',
    path: ['name'],
  })
  .meta({ id: 'UpdateAssetRequest' });

export const AssetListBody = z.object({ assets: z.array(AssetBody), pagination: PaginationBody }).meta({ id: 'AssetList' });
export const AssetDeletedBody = z.object({ id: z.string(), deleted: z.literal(true) });

