import type { Principal } from '../auth/api-key.service.js';
import { notFound, validationError } from '../errors.js';
import { nextPostingKey } from '../idempotency/request-scope.js';
import type { PostingRepository } from '../ledger/posting.repository.js';
import type { OwnershipService } from '../ownership/ownership.service.js';
import { checkAnnotations, ExpiresInRule } from '../ledger/ledger.rules.js';
import type { HistoryRow, PostingCondition, PostingLeg, PostingResult } from '../ledger/ledger.types.js';
import { checkConditions, resolveConditions } from '../ledger/conditions.js';
import type { PostingOptions } from '../ledger/posting.service.js';
import type { PostingQueue } from '../ledger/posting-queue.js';
import { minorAmount, resolveMovement } from '../ledger/movement.js';
import { refusal } from '../ledger/posting-refusal.js';
import { UuidRule, ProjectIdRule } from '../shared/ids.js';
import { checkField, checkInput } from '../shared/validation.js';
import { checkPaging, pageOf, windowOf, type Page } from '../shared/paging.js';
import { isUuid } from '../shared/ids.js';
import type { HoldRepository } from './hold.repository.js';
import { checkMaturity } from './maturity.rules.js';
import { HOLD_STATUSES, type CaptureHoldInput, type CreateHoldInput, type HoldListQuery, type HoldView, type VoidHoldInput } from './hold.types.js';
import { z } from 'zod';

const FilterRules = z.object({ projectId: ProjectIdRule, status: z.enum(HOLD_STATUSES).optional() });

/**
 * Holds (two-phase transfers, CONTRACT §10): reserve the sender's available funds, then capture
 * (all or part) or void. The rules live in the posting routines (ledger_apply.sql); every change
 * goes through the PostingQueue like any posting.
 */
export class HoldService {
  constructor(
    private readonly holds: HoldRepository,
    private readonly postings: PostingRepository,
    private readonly ownership: OwnershipService,
    private readonly queue: PostingQueue,
  ) {}

  async create(principal: Principal, input: CreateHoldInput, options: PostingOptions = {}): Promise<HoldView> {
    const notes = checkAnnotations(input);
    if (input.expiresIn != null) checkField('expiresIn', ExpiresInRule, input.expiresIn);
    const { matureIn, matureAt } = checkMaturity(input);
    const { context, asset, from, to, amount } = await resolveMovement(this.postings, principal, input);
    const request: PostingLeg = {
      kind: 'hold',
      projectId: context.projectId,
      assetId: asset.id,
      fromWalletId: from.id,
      toWalletId: to.id,
      amount,
      requestKey: nextPostingKey(),
      expiresIn: input.expiresIn ?? null,
      ...(matureIn !== null && { matureIn }),
      ...(matureAt !== null && { matureAt }),
      ...notes,
    };
    // read back in the posting's own transaction on a dry run: the hold exists only there
    return this.queue.post(request, options.dryRun ?? false, (result) => {
      if (result.code !== 'ok') throw refusal(result, asset.fractions);
      return this.reread(principal, result.holdId!);
    });
  }

  /** Posts `amount` (default: the whole hold) from → to, releases the rest; the hold becomes `captured`. */
  async capture(principal: Principal, id: string, input: CaptureHoldInput, options: PostingOptions = {}): Promise<{ transaction: HistoryRow; hold: HoldView }> {
    const checked = checkConditions(input.conditions);
    const hold = await this.settling(principal, id, input.projectId);
    let amount: bigint | null = null;
    const asset = { id: hold.assetId, symbol: hold.symbol, fractions: hold.fractions };
    if (input.amount != null) {
      amount = minorAmount(input.amount, asset);
      if (amount > hold.amount) throw validationError('amount', 'must be at most the hold amount');
    }
    const parties = [{ id: hold.fromWalletId, address: hold.from }, { id: hold.toWalletId, address: hold.to }];
    const conditions = await resolveConditions(this.postings, principal, hold.projectId, checked, parties, asset);
    return this.settle(hold, 'capture', amount, options.dryRun ?? false, conditions, async (result) => {
      const settled = await this.reread(principal, hold.id);
      return { transaction: captured(hold, result, settled), hold: settled };
    });
  }

  /** Voids a pending hold; for a maturing hold before its time, the clawback (CONTRACT §26). */
  async void(principal: Principal, id: string, input: VoidHoldInput): Promise<HoldView> {
    const hold = await this.settling(principal, id, input.projectId);
    return this.settle(hold, 'void', null, false, undefined, () => this.reread(principal, hold.id));
  }

  async get(principal: Principal, id: string): Promise<HoldView> {
    checkField('id', UuidRule, id);
    const [hold] = await this.holds.byIds(principal.ownerId, [id]);
    if (!hold) throw notFound('hold', id);
    return hold;
  }

  /** One statement for a batch of ids (DataLoader): aligned with `ids`, null where missing or foreign. */
  async getMany(ownerId: string, ids: readonly string[]): Promise<(HoldView | null)[]> {
    const rows = await this.holds.byIds(ownerId, ids.filter(isUuid));
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(String(id).toLowerCase()) ?? null);
  }

  /** A project's holds, newest first; `walletId` (an id or address of the project) matches either side. */
  async list(principal: Principal, query: HoldListQuery): Promise<Page<HoldView> & { hasMore: boolean }> {
    const { projectId, status } = checkInput(FilterRules, { projectId: query.projectId, status: query.status });
    const paging = checkPaging(query);
    let walletId: string | null = null;
    if (query.walletId !== undefined) walletId = (await this.ownership.walletOf(principal, query.walletId, projectId)).id;
    else await this.ownership.requireProject(principal, projectId);
    const { rows, total } = await this.holds.list(projectId, walletId, status ?? null, windowOf(paging));
    return pageOf(paging, rows, total);
  }

  /** The caller's hold in that project (else 404), before any state check. */
  private async settling(principal: Principal, id: string, projectId: number): Promise<HoldView> {
    checkField('id', UuidRule, id);
    checkField('projectId', ProjectIdRule, projectId);
    const [hold] = await this.holds.byIds(principal.ownerId, [id]);
    if (!hold || hold.projectId !== projectId) throw notFound('hold', id);
    return hold;
  }

  private settle<T>(hold: HoldView, kind: 'capture' | 'void', amount: bigint | null, dryRun: boolean, conditions: PostingCondition[] | undefined, answer: (result: PostingResult) => Promise<T>): Promise<T> {
    const request: PostingLeg = {
      kind,
      projectId: hold.projectId,
      assetId: hold.assetId,
      fromWalletId: hold.fromWalletId,
      toWalletId: hold.toWalletId,
      amount,
      target: hold.id,
      requestKey: nextPostingKey(),
      conditions,
    };
    // the settled hold is read in the posting's own transaction on a dry run: it is settled only there
    return this.queue.post(request, dryRun, (result) => {
      if (result.code !== 'ok') throw refusal(result, hold.fractions);
      return answer(result);
    });
  }

  private async reread(principal: Principal, id: string): Promise<HoldView> {
    const [hold] = await this.holds.byIds(principal.ownerId, [id]);
    return hold;
  }
}

/** A capture's transaction as POST /holds/{id}/capture answers it: from the sender's side. */
function captured(hold: HoldView, result: PostingResult, settled: HoldView): HistoryRow {
  return {
    walletId: hold.fromWalletId,
    id: result.id!,
    seq: result.seq!,
    projectId: hold.projectId,
    assetId: hold.assetId,
    symbol: hold.symbol,
    fractions: hold.fractions,
    amount: settled.capturedAmount,
    fromWalletId: hold.fromWalletId,
    toWalletId: hold.toWalletId,
    fromAddress: hold.from,
    toAddress: hold.to,
    balance: result.fromBalance!,
    date: result.postedAt!,
    reverses: null,
    reversedAmount: 0n,
    reference: null,
    metadata: {},
  };
}
