import type { Principal } from '../auth/api-key.service.js';
import { conflict, notFound, validationError, type LedgerError } from '../errors.js';
import { checkAsOf } from '../ledger/as-of.rules.js';
import { isUuid, UuidRule } from '../shared/ids.js';
import { offsetOf, type Page } from '../shared/paging.js';
import { checkField, checkInput } from '../shared/validation.js';
import type { WalletGroupRepository } from './wallet-group.repository.js';
import { CreateGroupRules, groupQuotaExceeded, ListGroupsRules, MAX_GROUP_DEPTH, MAX_GROUPS_PER_PROJECT, MemberRefRule, MembershipRules, UpdateGroupRules } from './wallet-group.rules.js';
import type { CreateGroupInput, GroupBalanceView, ListGroupsInput, TreeRefusal, UpdateGroupInput, WalletGroupDetail, WalletGroupView } from './wallet-group.types.js';

type GroupRef = { projectId: number; id: string };

/**
 * Wallet groups (CONTRACT §29): a project's tree of groups (depth ≤ 8, no cycle, 10,000 per
 * project), a wallet in at most one, and each group's balances rolled up over its whole subtree.
 * The tree and memberships are this service's; the sums move inside the posting routines
 * (wallet_groups_watch.sql, wallet_groups_roll.sql) in the same commit as the balances.
 */
export class WalletGroupService {
  constructor(private readonly groups: WalletGroupRepository) {}

  /** Errors: validation_error (fields; a parent at depth 8), not_found (project, parent), quota_exceeded. */
  async create(principal: Principal, input: CreateGroupInput): Promise<WalletGroupView> {
    const { projectId, name, parentId, metadata } = checkInput(CreateGroupRules, input);
    await this.project(principal, projectId);
    const made = await this.groups.create(projectId, { name, parentId: parentId?.toLowerCase() ?? null, metadata: metadata ?? null }, MAX_GROUPS_PER_PROJECT);
    return typeof made === 'string' ? refused(made, parentId ?? '') : made;
  }

  /** The group with its roll-up (as of a time: posted balances of its current wallets) and its direct subgroups. Errors: validation_error, not_found. */
  async get(principal: Principal, id: string, asOf?: Date): Promise<WalletGroupDetail> {
    const group = await this.found(principal, id);
    if (asOf !== undefined) checkAsOf(asOf, { id, createdAt: new Date(0) });
    const [balances, groups] = await Promise.all([asOf === undefined ? this.groups.balances([group]) : this.groups.balancesAsOf(group, asOf), this.groups.subgroups([group])]);
    return { ...group, balances, groups };
  }

  /** A project's roots, or `parentId`'s children (none for an unknown parent), oldest first. Errors: validation_error, not_found (project). */
  async list(principal: Principal, query: ListGroupsInput): Promise<Page<WalletGroupView>> {
    const { projectId, parentId, page, limit } = checkInput(ListGroupsRules, query);
    await this.project(principal, projectId);
    const { rows, total } = await this.groups.list(projectId, parentId?.toLowerCase() ?? null, limit, offsetOf({ page, limit }));
    return { items: rows, total };
  }

  /** Renames and/or moves. Errors: validation_error (fields, a cycle, depth over 8), not_found (project, group, parent). */
  async update(principal: Principal, id: string, input: UpdateGroupInput): Promise<WalletGroupDetail> {
    checkField('id', UuidRule, id);
    const { projectId, name, parentId } = checkInput(UpdateGroupRules, input);
    await this.project(principal, projectId);
    const changed = await this.groups.update(projectId, id.toLowerCase(), { name, parentId: parentId === undefined ? undefined : (parentId?.toLowerCase() ?? null) });
    if (typeof changed === 'string') return refused(changed, changed === 'group' ? id : (parentId ?? ''));
    return this.detail(changed);
  }

  /** Only an empty group (no wallet, no subgroup). Errors: validation_error, not_found, conflict. */
  async delete(principal: Principal, id: string): Promise<{ id: string; deleted: true }> {
    const group = await this.found(principal, id);
    const done = await this.groups.delete(group.projectId, group.id);
    if (done !== true) refused(done, id);
    return { id: group.id, deleted: true };
  }

  /** Puts a wallet (id or address) in the group, moving it out of another. Errors: validation_error, not_found (project, group, wallet). */
  async addWallet(principal: Principal, id: string, wallet: string, input: { projectId: number }): Promise<WalletGroupDetail> {
    return this.membership(principal, id, wallet, input, (projectId, group, ref, walletId) => this.groups.addWallet(projectId, group, ref, walletId));
  }

  /** Errors: validation_error, not_found (project, group, wallet, the wallet not in the group). */
  async removeWallet(principal: Principal, id: string, wallet: string, input: { projectId: number }): Promise<WalletGroupDetail> {
    return this.membership(principal, id, wallet, input, (projectId, group, ref, walletId) => this.groups.removeWallet(projectId, group, ref, walletId));
  }

  /** One statement for a batch of ids (DataLoader): aligned with `ids`, null where missing or another owner's. */
  async getMany(ownerId: string, ids: readonly string[]): Promise<(WalletGroupView | null)[]> {
    const valid = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
    const byId = new Map((await this.groups.byIds(ownerId, valid)).map((g) => [g.id, g]));
    return ids.map((id) => byId.get(id.toLowerCase()) ?? null);
  }

  /** Current roll-ups of many groups already read by their owner (the GraphQL loaders), in one statement. */
  balancesOf(groups: readonly GroupRef[]): Promise<GroupBalanceView[]> {
    return this.groups.balances(groups);
  }

  balancesAsOf(group: GroupRef, asOf: Date): Promise<GroupBalanceView[]> {
    checkAsOf(asOf, { id: group.id, createdAt: new Date(0) });
    return this.groups.balancesAsOf(group, asOf);
  }

  subgroupsOf(groups: readonly GroupRef[]): Promise<WalletGroupView[]> {
    return this.groups.subgroups(groups);
  }

  /** A keyset page of the project's roots or of `parentId`'s children (GraphQL), `first + 1` rows to tell a next page. Errors: validation_error, not_found (project). */
  async pageOf(principal: Principal, projectId: number, parentId: string | null, first: number, afterSeq: string | null): Promise<{ rows: WalletGroupView[]; total: number }> {
    if (parentId !== null) checkField('parentId', UuidRule, parentId);
    await this.project(principal, projectId);
    return this.groups.page(projectId, parentId?.toLowerCase() ?? null, first + 1, afterSeq);
  }

  /** The group's own wallets, a page (ids, in wallet creation order). */
  members(group: GroupRef, first: number, afterSeq: string | null): Promise<{ ids: { id: string; seq: string }[]; total: number }> {
    return this.groups.members(group, first + 1, afterSeq);
  }

  private async membership(
    principal: Principal,
    id: string,
    wallet: string,
    input: { projectId: number },
    change: (projectId: number, group: string, ref: string, walletId: string | null) => Promise<true | TreeRefusal>,
  ): Promise<WalletGroupDetail> {
    checkField('id', UuidRule, id);
    checkField('walletId', MemberRefRule, wallet);
    const { projectId } = checkInput(MembershipRules, input);
    await this.project(principal, projectId);
    const done = await change(projectId, id.toLowerCase(), wallet, isUuid(wallet) ? wallet.toLowerCase() : null);
    if (done !== true) refused(done, done === 'group' ? id : wallet);
    return this.detail((await this.groups.byIds(principal.ownerId, [id.toLowerCase()]))[0]);
  }

  private async detail(group: WalletGroupView): Promise<WalletGroupDetail> {
    const [balances, groups] = await Promise.all([this.groups.balances([group]), this.groups.subgroups([group])]);
    return { ...group, balances, groups };
  }

  private async found(principal: Principal, id: string): Promise<WalletGroupView> {
    checkField('id', UuidRule, id);
    const [group] = await this.groups.byIds(principal.ownerId, [id.toLowerCase()]);
    if (!group) throw notFound('wallet group', id);
    return group;
  }

  private async project(principal: Principal, projectId: number): Promise<void> {
    if (!(await this.groups.projectOf(principal.ownerId, projectId))) throw notFound('project', projectId);
  }
}

/** The error of a refused tree change (`subject`: the id or reference it is about). */
function refused(refusal: TreeRefusal, subject: string): never {
  const errors: Record<TreeRefusal, () => LedgerError> = {
    project: () => notFound('project', subject),
    group: () => notFound('wallet group', subject),
    parent: () => notFound('wallet group', subject),
    wallet: () => notFound('wallet', subject),
    not_member: () => notFound('wallet in this group', subject),
    quota: groupQuotaExceeded,
    cycle: () => validationError('parentId', 'would make the group its own ancestor (a cycle)'),
    depth: () => validationError('parentId', `would make the tree deeper than ${MAX_GROUP_DEPTH} levels (a root is level 1)`),
    not_empty: () => conflict('only a group without wallets and without subgroups can be deleted', { id: subject }),
  };
  throw errors[refusal]();
}
