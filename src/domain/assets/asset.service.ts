import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { Principal } from '../auth/api-key.service.js';
import { AssetSchema, ProjectSchema } from '../../db/entities.js';
import type { Database } from '../../db/database.js';
import { conflict, LedgerError, notFound } from '../errors.js';
import { AssetRepository } from './asset.repository.js';
import { AssetListRules, CreateAssetRules, UpdateAssetRules } from './asset.rules.js';
import { toAssetView, type AssetView, type CreateAssetInput, type UpdateAssetInput } from './asset.types.js';
import { checkField, checkInput } from '../shared/validation.js';
import { isUniqueViolation } from '../shared/error-translation.js';
import { quotaExceeded } from '../auth/plans.js';
import { alignById, offsetOf, PageRules, type Page, type PageRequest } from '../shared/paging.js';
import { ProjectIdRule, UuidRule } from '../shared/ids.js';

const symbolConflict = (symbol: string) => conflict(`the project already has a currency with symbol ${symbol}`, { field: 'symbol', symbol });

/** Assets (currencies) of a project: `assets_per_project` quota, symbol rules, the primary asset. */
export class AssetService {
  constructor(private readonly db: Database) {}

  async create(principal: Principal, input: CreateAssetInput): Promise<AssetView> {
    const data = checkInput(CreateAssetRules, input);
    const { ownerId } = principal;
    return this.translateSymbolClash(data.symbol, () =>
      this.db.em().transactional(async (em) => {
        const assets = new AssetRepository(em);
        const project = await assets.lockProject(ownerId, data.projectId);
        if (!project) throw notFound('project', data.projectId);
        const limit = principal.plan.assets_per_project;
        if ((await em.count(AssetSchema, { projectId: data.projectId })) >= limit) throw quotaExceeded('assets_per_project', limit);
        if (await assets.symbolTaken(ownerId, data.projectId, data.symbol, null)) throw symbolConflict(data.symbol);
        const expiresAfterSeconds = data.expiresAfterSeconds ?? null;
        const asset = em.create(AssetSchema, { id: randomUUID(), ownerId, ...data, expiresAfterSeconds, everExpiring: expiresAfterSeconds !== null });
        await em.flush();
        // The first asset becomes the primary one; a project sharing another's primary keeps it.
        if (project.assetId === null) {
          await em.nativeUpdate(ProjectSchema, { id: data.projectId, assetId: null }, { assetId: asset.id, updatedAt: new Date() });
        }
        return toAssetView(asset);
      }),
    );
  }

  /** The owner's assets, or one project's own assets, oldest first. */
  async list(principal: Principal, request: PageRequest & { projectId?: number }): Promise<Page<AssetView>> {
    const { page, limit } = checkInput(PageRules, request);
    const { projectId } = checkInput(AssetListRules, { projectId: request.projectId });
    const { ownerId } = principal;
    const em = this.db.em();
    if (projectId !== undefined && !(await em.count(ProjectSchema, { id: projectId, ownerId }))) throw notFound('project', projectId);
    const where = projectId === undefined ? { ownerId } : { ownerId, projectId };
    const [rows, total] = await em.findAndCount(AssetSchema, where, { orderBy: { seq: 'asc' }, limit, offset: offsetOf({ page, limit }) });
    return { items: rows.map(toAssetView), total };
  }

  async get(principal: Principal, id: string): Promise<AssetView> {
    checkField('id', UuidRule, id);
    const asset = await this.db.em().findOne(AssetSchema, { id, ownerId: principal.ownerId });
    if (!asset) throw notFound('asset', id);
    return toAssetView(asset);
  }

  /**
   * Renames; the symbol of an asset that has transactions is fixed (409 conflict). A `projectId`,
   * when given, must be the asset's. A new `expiresAfterSeconds` applies to credits posted after
   * it (each credit reads it when it posts; existing lots keep their expiry).
   */
  async update(principal: Principal, id: string, input: UpdateAssetInput): Promise<AssetView> {
    checkField('id', UuidRule, id);
    const data = checkInput(UpdateAssetRules, input);
    const { ownerId } = principal;
    return this.translateSymbolClash(data.symbol ?? '', () =>
      this.db.em().transactional(async (em) => {
        const asset = await em.findOne(AssetSchema, { id, ownerId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!asset || (data.projectId !== undefined && asset.projectId !== data.projectId)) throw notFound('asset', id);
        if (data.symbol !== undefined && data.symbol !== asset.symbol) {
          const assets = new AssetRepository(em);
          await assets.lockProjectsUsing(ownerId, asset.projectId, asset.id);
          if (await assets.hasPostings(asset.id)) throw conflict('the symbol of an asset with transactions cannot change', { field: 'symbol' });
          if (await assets.symbolTaken(ownerId, asset.projectId, data.symbol, asset.id)) throw symbolConflict(data.symbol);
          asset.symbol = data.symbol;
        }
        if (data.name !== undefined) asset.name = data.name;
        if (data.expiresAfterSeconds !== undefined) {
          if (data.expiresAfterSeconds !== null && !asset.everExpiring && (await new AssetRepository(em).hasCreditLines(asset.id))) {
            throw conflict('an asset with credit lines cannot expire', { field: 'expiresAfterSeconds' });
          }
          asset.expiresAfterSeconds = data.expiresAfterSeconds;
          if (data.expiresAfterSeconds !== null) asset.everExpiring = true;
        }
        await em.flush();
        return toAssetView(asset);
      }),
    );
  }

  /** Deletes an asset no posting ever touched; projects using it as primary fall back to their oldest own asset. */
  async delete(principal: Principal, id: string): Promise<{ id: string; deleted: true }> {
    checkField('id', UuidRule, id);
    const { ownerId } = principal;
    return this.db.em().transactional(async (em) => {
      const asset = await em.findOne(AssetSchema, { id, ownerId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!asset) throw notFound('asset', id);
      const assets = new AssetRepository(em);
      await assets.lockProjectsUsing(ownerId, asset.projectId, asset.id);
      if (await assets.hasPostings(asset.id)) throw new LedgerError('asset_in_use', 'the asset has transactions', { id });
      await assets.reassignPrimary(ownerId, asset.id);
      em.remove(asset);
      await em.flush();
      return { id: asset.id, deleted: true as const };
    });
  }

  /** One statement for a batch of ids (DataLoader): aligned with `ids`, null where missing or foreign. */
  async getMany(ownerId: string, ids: readonly string[]): Promise<(AssetView | null)[]> {
    const valid = [...new Set(ids.filter((id) => UuidRule.safeParse(id).success).map((id) => id.toLowerCase()))];
    const rows = valid.length ? await this.db.em().find(AssetSchema, { id: { $in: valid }, ownerId }) : [];
    const views = rows.map(toAssetView);
    return alignById(ids.map((id) => id.toLowerCase()), views);
  }

  /** Each project's own assets, oldest first, in one statement (DataLoader): aligned with `projectIds`. */
  async listByProjects(ownerId: string, projectIds: readonly number[]): Promise<AssetView[][]> {
    const valid = [...new Set(projectIds.filter((id) => ProjectIdRule.safeParse(id).success))];
    const rows = valid.length ? await this.db.em().find(AssetSchema, { projectId: { $in: valid }, ownerId }, { orderBy: { seq: 'asc' } }) : [];
    const byProject = new Map<number, AssetView[]>();
    for (const row of rows) {
      const list = byProject.get(row.projectId) ?? [];
      list.push(toAssetView(row));
      byProject.set(row.projectId, list);
    }
    return projectIds.map((id) => byProject.get(id) ?? []);
  }

  private async translateSymbolClash<T>(symbol: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isUniqueViolation(error)) throw symbolConflict(symbol);
      throw error;
    }
  }
}
