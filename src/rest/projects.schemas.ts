import { z } from 'zod';
import { ExchangeRateRule, MetadataRule, ProjectNameRule, ProjectTypeRule } from '../domain/projects/project.rules.js';
import { PaginationBody } from '../json/page.json.js';
import { ProjectBody } from '../json/project.json.js';
import { PageQuery, ProjectIdQuery } from './schemas.js';
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

export const ProjectListBody = z.object({ projects: z.array(ProjectBody), pagination: PaginationBody }).meta({ id: 'ProjectList' });

