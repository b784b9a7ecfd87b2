import { z } from 'zod';
import { ExchangeRateRule, MetadataRule, ProjectNameRule, ProjectTypeRule } from '../domain/projects/project.rules.js';
import type { ProjectView } from '../domain/projects/project.types.js';
import { PageQuery, PaginationBody, ProjectIdQuery } from './schemas.js';
import { UuidRule } from '../domain/shared/ids.js';

export const ProjectIdParams = z.strictObject({ id: ProjectIdQuery });
export const ProjectListQuery = z.strictObject({ ...PageQuery });

export const CreateProjectBody = z.strictObject({
  name: ProjectNameRule,
  type: ProjectTypeRule.optional(),
  exchangeRate: ExchangeRateRule.optional(),
  supportExchangeRate: z.boolean().optional(),
  metadata: MetadataRule.optional(),
  asset_id: UuidRule.nullable().optional(),
}).meta({ id: 'CreateProjectRequest' });

export const RenameProjectBody = z.strictObject({ name: ProjectNameRule }).meta({ id: 'RenameProjectRequest' });

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

export const ProjectListBody = z.object({ projects: z.array(ProjectBody), pagination: PaginationBody }).meta({ id: 'ProjectList' });

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
