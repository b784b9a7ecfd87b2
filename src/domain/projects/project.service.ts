import type { Principal } from '../auth/api-key.service.js';
import { AssetSchema, ProjectSchema } from '../../db/entities.js';
import type { Database } from '../../db/database.js';
import { notFound } from '../errors.js';
import { CreateProjectRules, RenameProjectRules } from './project.rules.js';
import { toProjectView, type CreateProjectInput, type ProjectView } from './project.types.js';
import { checkField, checkInput } from '../shared/validation.js';
import { isForeignKeyViolation } from '../shared/error-translation.js';
import { OwnerRepository } from '../auth/owner.repository.js';
import { quotaExceeded } from '../auth/plans.js';
import { alignById, offsetOf, PageRules, type Page, type PageRequest } from '../shared/paging.js';
import { ProjectIdRule } from '../shared/ids.js';

/** Projects of an owner: creation under the `projects` quota, reads, rename. */
export class ProjectService {
  constructor(private readonly db: Database) {}

  async create(principal: Principal, input: CreateProjectInput): Promise<ProjectView> {
    const data = checkInput(CreateProjectRules, input);
    const { ownerId } = principal;
    try {
      return await this.db.em().transactional(async (em) => {
        await new OwnerRepository(em).lock(ownerId);
        const limit = principal.plan.projects;
        if ((await em.count(ProjectSchema, { ownerId })) >= limit) throw quotaExceeded('projects', limit);
        if (data.assetId && !(await em.count(AssetSchema, { id: data.assetId, ownerId }))) throw notFound('asset', data.assetId);
        const project = em.create(ProjectSchema, {
          ownerId,
          name: data.name,
          type: data.type,
          exchangeRate: String(data.exchangeRate),
          supportExchangeRate: data.supportExchangeRate,
          metadata: data.metadata,
          assetId: data.assetId ?? null,
        });
        await em.flush();
        return toProjectView(project);
      });
    } catch (error) {
      // the shared asset was deleted between our check and the insert
      if (isForeignKeyViolation(error) && data.assetId) throw notFound('asset', data.assetId);
      throw error;
    }
  }

  /** The owner's projects, oldest first. */
  async list(principal: Principal, request: PageRequest): Promise<Page<ProjectView>> {
    const { page, limit } = checkInput(PageRules, request);
    const [rows, total] = await this.db
      .em()
      .findAndCount(ProjectSchema, { ownerId: principal.ownerId }, { orderBy: { id: 'asc' }, limit, offset: offsetOf({ page, limit }) });
    return { items: rows.map(toProjectView), total };
  }

  /** Another owner's project is not found, exactly like a missing one. */
  async get(principal: Principal, id: number): Promise<ProjectView> {
    checkField('id', ProjectIdRule, id);
    const project = await this.db.em().findOne(ProjectSchema, { id, ownerId: principal.ownerId });
    if (!project) throw notFound('project', id);
    return toProjectView(project);
  }

  async rename(principal: Principal, id: number, name: string): Promise<ProjectView> {
    checkField('id', ProjectIdRule, id);
    const data = checkInput(RenameProjectRules, { name });
    const em = this.db.em();
    const project = await em.findOne(ProjectSchema, { id, ownerId: principal.ownerId });
    if (!project) throw notFound('project', id);
    project.name = data.name;
    await em.flush();
    return toProjectView(project);
  }

  /** One statement for a batch of ids (DataLoader): aligned with `ids`, null where missing or foreign. */
  async getMany(ownerId: string, ids: readonly number[]): Promise<(ProjectView | null)[]> {
    const valid = ids.filter((id) => ProjectIdRule.safeParse(id).success);
    const rows = valid.length ? await this.db.em().find(ProjectSchema, { id: { $in: [...new Set(valid)] }, ownerId }) : [];
    return alignById(ids, rows.map(toProjectView));
  }
}
