import { z } from 'zod';
import type { ProjectView } from '../domain/projects/project.types.js';

/** A project (CONTRACT §3). */
export const ProjectBody = z
  .object({
    id: z.number().int(),
    asset_id: z.string().nullable(),
    name: z.string(),
    type: z.string(),
    exchangeRate: z.number(),
    supportExchangeRate: z.boolean(),
    metadata: z.record(z.string(), z.unknown()),
    owner: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Project' });

export function projectJson(project: ProjectView): z.infer<typeof ProjectBody> {
  return {
    id: project.id,
    asset_id: project.assetId,
    name: project.name,
    type: project.type,
    exchangeRate: project.exchangeRate,
    supportExchangeRate: project.supportExchangeRate,
    metadata: project.metadata,
    owner: project.ownerId,
    created_at: project.createdAt.toISOString(),
    updated_at: project.updatedAt.toISOString(),
  };
}
