import { randomBytes, randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { Principal } from '../auth/api-key.service.js';
import { ProjectSchema, WalletSchema } from '../../db/entities.js';
import type { Database } from '../../db/database.js';
import { conflict, LedgerError, notFound } from '../errors.js';
import { OutboxRepository } from '../outbox/outbox.repository.js';
import { WalletRepository } from './wallet.repository.js';
import { CreateWalletRules, SetWalletStatusRules, STATUS_TRANSITIONS, WalletListRules, WalletSliceRules, WalletTypeRule } from './wallet.rules.js';
import { toWalletView, type CreateWalletInput, type SetWalletStatusInput, type WalletSlice, type WalletSliceInput, type WalletStatus, type WalletType, type WalletView } from './wallet.types.js';
import { checkField, checkInput } from '../shared/validation.js';
import { isUniqueViolation } from '../shared/error-translation.js';
import { OwnerRepository } from '../auth/owner.repository.js';
import { quotaExceeded } from '../auth/plans.js';
import { alignById, offsetOf, PageRules, type Page, type PageRequest } from '../shared/paging.js';
import { ProjectIdRule, UuidRule } from '../shared/ids.js';

const QUOTA = { customer: 'customer_wallets', system: 'system_wallets' } as const;

const generatedAddress = (): string => `wal_${randomBytes(12).toString('hex')}`;

/** Customer and system wallets: per-owner quotas, addresses, status transitions. */
export class WalletService {
  private readonly repository: WalletRepository;
  private readonly events: OutboxRepository;

  /** `eventsCommitted` runs after a commit that wrote events (it wakes the event sequencer). */
  constructor(
    private readonly db: Database,
    private readonly eventsCommitted: () => void = () => undefined,
  ) {
    this.repository = new WalletRepository(db);
    this.events = new OutboxRepository(db);
  }

  async create(principal: Principal, type: WalletType, input: CreateWalletInput): Promise<WalletView> {
    checkField('type', WalletTypeRule, type);
    const data = checkInput(CreateWalletRules, input);
    const { ownerId } = principal;
    const address = data.address ?? generatedAddress();
    try {
      return await this.db.em().transactional(async (em) => {
        const owner = new OwnerRepository(em);
        const count = (await owner.lock(ownerId))[type];
        if (!(await em.count(ProjectSchema, { id: data.projectId, ownerId }))) throw notFound('project', data.projectId);
        const limit = principal.plan[QUOTA[type]];
        if (count >= limit) throw quotaExceeded(QUOTA[type], limit);
        const wallet = em.create(WalletSchema, { id: randomUUID(), projectId: data.projectId, ownerId, address, type, status: 'active' });
        await em.flush();
        await owner.countNewWallet(ownerId, type);
        return toWalletView(wallet);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`the project already has a wallet with address ${address}`, { field: 'address', address });
      throw error;
    }
  }

  /** The owner's wallets of one type, optionally in one project, oldest first. */
  async list(principal: Principal, type: WalletType, request: PageRequest & { projectId?: number }): Promise<Page<WalletView>> {
    checkField('type', WalletTypeRule, type);
    const { page, limit } = checkInput(PageRules, request);
    const { projectId } = checkInput(WalletListRules, { projectId: request.projectId });
    const { ownerId } = principal;
    const em = this.db.em();
    if (projectId !== undefined && !(await em.count(ProjectSchema, { id: projectId, ownerId }))) throw notFound('project', projectId);
    const where = projectId === undefined ? { ownerId, type } : { ownerId, type, projectId };
    const [rows, total] = await em.findAndCount(WalletSchema, where, { orderBy: { seq: 'asc' }, limit, offset: offsetOf({ page, limit }) });
    return { items: rows.map(toWalletView), total };
  }

  async get(principal: Principal, id: string): Promise<WalletView> {
    checkField('id', UuidRule, id);
    const wallet = await this.db.em().findOne(WalletSchema, { id, ownerId: principal.ownerId });
    if (!wallet) throw notFound('wallet', id);
    return toWalletView(wallet);
  }

  /**
   * Follows STATUS_TRANSITIONS (wallet.rules.ts): active ⇄ suspended; active|suspended → closed
   * only with every balance at zero; closed is final; the current status again is a no-op. The
   * wallet row is locked first (postings lock it too, in ledger_post), so a close can never
   * interleave with a credit.
   */
  async setStatus(principal: Principal, id: string, input: SetWalletStatusInput): Promise<WalletView> {
    checkField('id', UuidRule, id);
    const data = checkInput(SetWalletStatusRules, input);
    let changed = false;
    const view = await this.db.em().transactional(async (em) => {
      const wallet = await em.findOne(WalletSchema, { id, ownerId: principal.ownerId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!wallet || wallet.projectId !== data.projectId) throw notFound('wallet', id);
      const transition = STATUS_TRANSITIONS[wallet.status as WalletStatus][data.status];
      if (transition === 'unchanged') return toWalletView(wallet);
      if (transition === 'refused') throw conflict(`a ${wallet.status} wallet cannot become ${data.status}`, { status: wallet.status });
      if (transition === 'when_empty' && (await this.repository.holdsFunds(em, wallet.id))) {
        throw new LedgerError('wallet_not_empty', 'only a wallet whose balances are all zero can be closed', { id });
      }
      // Holds are created and settled under the same wallet row lock, so none can appear meanwhile.
      if (data.status === 'closed' && (await this.repository.hasPendingHolds(em, wallet.projectId, wallet.id))) {
        throw new LedgerError('wallet_not_empty', 'a wallet with pending holds (either side) cannot be closed', { id });
      }
      wallet.status = data.status;
      await em.flush();
      // the event in the same database transaction as the change (CONTRACT §16)
      await this.events.emit(em, { projectId: wallet.projectId, type: 'wallet.status_changed', subjectId: wallet.id, status: data.status, at: wallet.updatedAt });
      changed = true;
      return toWalletView(wallet);
    });
    if (changed) this.eventsCommitted();
    return view;
  }

  /** One statement for a batch of ids (DataLoader): aligned with `ids`, null where missing or foreign. */
  async getMany(ownerId: string, ids: readonly string[]): Promise<(WalletView | null)[]> {
    const valid = [...new Set(ids.filter((id) => UuidRule.safeParse(id).success).map((id) => id.toLowerCase()))];
    const rows = valid.length ? await this.db.em().find(WalletSchema, { id: { $in: valid }, ownerId }) : [];
    return alignById(ids.map((id) => id.toLowerCase()), rows.map(toWalletView));
  }

  /**
   * A page of each project's wallets (oldest first, optionally of one type) in one statement
   * (DataLoader): aligned with `projectIds`; a missing or foreign project gets an empty slice.
   */
  async listByProjects(ownerId: string, projectIds: readonly number[], options: WalletSliceInput = {}): Promise<WalletSlice[]> {
    const { type, first, after } = checkInput(WalletSliceRules, options);
    const valid = [...new Set(projectIds.filter((id) => ProjectIdRule.safeParse(id).success))];
    const slices = valid.length ? await this.repository.slices(ownerId, valid, type ?? null, first, after ?? null) : new Map<number, WalletSlice>();
    return projectIds.map((id) => slices.get(id) ?? { edges: [], totalCount: 0, hasNextPage: false });
  }
}
