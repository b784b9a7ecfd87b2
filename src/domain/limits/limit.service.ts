import { z } from 'zod';
import type { Principal } from '../auth/api-key.service.js';
import { notFound } from '../errors.js';
import type { PostingRepository } from '../ledger/posting.repository.js';
import type { OwnershipService } from '../ownership/ownership.service.js';
import { WalletRefRule } from '../ledger/ledger.rules.js';
import { toMinor } from '../money.js';
import { ProjectIdRule, UuidRule } from '../shared/ids.js';
import { offsetOf, PageRules, type Page, type PageRequest } from '../shared/paging.js';
import { checkField, checkInput } from '../shared/validation.js';
import type { WalletService } from '../wallets/wallet.service.js';
import type { LimitRepository } from './limit.repository.js';
import { CreateLimitRules, limitQuotaExceeded, MAX_LIMITS_PER_PROJECT } from './limit.rules.js';
import type { CreateLimitInput, LimitListQuery, LimitUsageView, LimitView } from './limit.types.js';

const FilterRules = z.object({ projectId: ProjectIdRule, walletId: WalletRefRule.optional() });

/**
 * Spending and earning limits (CONTRACT §19): their definitions and what a wallet used of them.
 * The check is the posting routines' (limits_check.sql, under the wallet's lock); this service
 * only writes the definitions.
 */
export class LimitService {
  constructor(
    private readonly limits: LimitRepository,
    private readonly postings: PostingRepository,
    private readonly ownership: OwnershipService,
    private readonly wallets: WalletService,
  ) {}

  async create(principal: Principal, input: CreateLimitInput): Promise<LimitView> {
    const { projectId, currency, direction, amount, windowSeconds, walletId } = checkInput(CreateLimitRules, input);
    const context = await this.postings.resolvePosting(principal.ownerId, projectId, currency, null, walletId ?? '');
    if (!context) throw notFound('project', projectId);
    if (!context.asset) throw notFound('currency', currency);
    if (walletId != null && !context.to) throw notFound('wallet', walletId);
    const created = await this.limits.insert(
      { projectId, walletId: walletId != null ? context.to!.id : null, assetId: context.asset.id, direction, amount: toMinor(amount, context.asset.fractions), windowSeconds },
      MAX_LIMITS_PER_PROJECT,
    );
    if (!created) throw limitQuotaExceeded();
    return created;
  }

  /** A project's limits, oldest first; with `walletId` (an id or address of the project), that wallet's own only. */
  async list(principal: Principal, query: LimitListQuery & PageRequest): Promise<Page<LimitView>> {
    const { page, limit } = checkInput(PageRules, query);
    const filter = await this.filter(principal, query);
    const { rows, total } = await this.limits.list(filter.projectId, filter.walletId, limit, offsetOf({ page, limit }));
    return { items: rows, total };
  }

  async delete(principal: Principal, id: string): Promise<{ id: string; deleted: true }> {
    checkField('id', UuidRule, id);
    if (!(await this.limits.delete(principal.ownerId, id.toLowerCase()))) throw notFound('limit', id);
    return { id: id.toLowerCase(), deleted: true };
  }

  /** The limits that apply to the caller's wallet now, for every currency and direction, with used and remaining. */
  async usage(principal: Principal, walletId: string): Promise<LimitUsageView[]> {
    const wallet = await this.wallets.get(principal, walletId);
    return this.limits.usage([wallet.id]);
  }

  /** `usage` of many wallets in one statement (DataLoader), aligned with `walletIds`; callers have checked tenancy. */
  async usageOf(walletIds: readonly string[]): Promise<LimitUsageView[][]> {
    const byWallet = new Map<string, LimitUsageView[]>(walletIds.map((id) => [id, []]));
    for (const row of await this.limits.usage(walletIds)) byWallet.get(row.usageWalletId)?.push(row);
    return walletIds.map((id) => byWallet.get(id) ?? []);
  }

  private async filter(principal: Principal, query: LimitListQuery): Promise<{ projectId: number; walletId: string | null }> {
    const { projectId, walletId } = checkInput(FilterRules, { projectId: query.projectId, walletId: query.walletId });
    await this.ownership.requireProject(principal, projectId);
    if (walletId === undefined) return { projectId, walletId: null };
    return { projectId, walletId: (await this.ownership.walletOf(principal, walletId, projectId)).id };
  }
}
