import type { Principal } from '../auth/api-key.service.js';
import { notFound } from '../errors.js';
import { WalletRefRule } from '../ledger/ledger.rules.js';
import { isUuid, ProjectIdRule, UuidRule } from '../shared/ids.js';
import { offsetOf, PageRules, type Page } from '../shared/paging.js';
import { checkField, checkInput } from '../shared/validation.js';
import type { BalanceMonitorRepository } from './monitor.repository.js';
import { CreateMonitorRules, MAX_MONITORS_PER_PROJECT, monitorQuotaExceeded, thresholdMinor } from './monitor.rules.js';
import type { BalanceMonitorListQuery, BalanceMonitorView, CreateBalanceMonitorInput } from './monitor.types.js';

const ListRules = PageRules.extend({ projectId: ProjectIdRule, walletId: WalletRefRule.nullish() });

/**
 * Balance monitors (CONTRACT §20): thresholds on a wallet's (or every customer wallet's) balance
 * or available funds in one currency. Creating, listing and deleting them is this service's; the
 * crossings are judged inside the posting routines (monitors_crossed.sql) and reach readers as
 * `balance.threshold_crossed` events through the outbox.
 */
export class BalanceMonitorService {
  constructor(private readonly monitors: BalanceMonitorRepository) {}

  /** Creating a monitor fires nothing: only later changes cross it. */
  async create(principal: Principal, input: CreateBalanceMonitorInput): Promise<BalanceMonitorView> {
    const { projectId, currency, field, operator, value, walletId } = checkInput(CreateMonitorRules, input);
    const target = await this.monitors.target(principal.ownerId, projectId, currency, walletId ?? null, walletId && isUuid(walletId) ? walletId : null);
    if (!target) throw notFound('project', projectId);
    if (!target.assetId) throw notFound('currency', currency);
    const threshold = thresholdMinor(value, target.fractions);
    if (walletId && !target.walletId) throw notFound('wallet', walletId);
    const created = await this.monitors.insert({ projectId, assetId: target.assetId, walletId: target.walletId, field, operator, value: threshold }, MAX_MONITORS_PER_PROJECT);
    if (created === null) throw monitorQuotaExceeded();
    if (created === 'gone') throw notFound('currency', currency);
    return created;
  }

  /** A project's monitors, oldest first; with `walletId` (id or address), only that wallet's own. */
  async list(principal: Principal, query: BalanceMonitorListQuery): Promise<Page<BalanceMonitorView>> {
    const { projectId, walletId, page, limit } = checkInput(ListRules, query);
    const target = await this.monitors.target(principal.ownerId, projectId, '', walletId ?? null, walletId && isUuid(walletId) ? walletId : null);
    if (!target) throw notFound('project', projectId);
    if (walletId && !target.walletId) throw notFound('wallet', walletId);
    const { rows, total } = await this.monitors.list(projectId, target.walletId, limit, offsetOf({ page, limit }));
    return { items: rows, total };
  }

  async delete(principal: Principal, id: string): Promise<{ id: string; deleted: true }> {
    checkField('id', UuidRule, id);
    if (!(await this.monitors.delete(principal.ownerId, id.toLowerCase()))) throw notFound('balance monitor', id);
    return { id: id.toLowerCase(), deleted: true };
  }
}

