import type { z } from 'zod';
import type { Asset } from '../../db/entities.js';
import type { CreateAssetRules, UpdateAssetRules } from './asset.rules.js';

export type CreateAssetInput = z.input<typeof CreateAssetRules>;
export type UpdateAssetInput = z.input<typeof UpdateAssetRules>;

export interface AssetView {
  id: string;
  projectId: number;
  ownerId: string;
  name: string;
  symbol: string;
  fractions: number;
  /** null: its points never expire. */
  expiresAfterSeconds: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export function toAssetView(asset: Asset): AssetView {
  return {
    id: asset.id,
    projectId: asset.projectId,
    ownerId: asset.ownerId,
    name: asset.name,
    symbol: asset.symbol,
    fractions: asset.fractions,
    expiresAfterSeconds: asset.expiresAfterSeconds ?? null,
    createdAt: asset.createdAt,
    updatedAt: asset.updatedAt,
  };
}
