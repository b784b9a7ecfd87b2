import type { Principal } from '../auth/api-key.service.js';
import { conflict, LedgerError, notFound, validationError } from '../errors.js';
import { nextPostingKey } from '../idempotency/request-scope.js';
import type { HistoryRepository } from './history.repository.js';
import type { PostingContext, PostingRepository } from './posting.repository.js';
import { checkAnnotations, checkReferences, type Annotations } from './ledger.rules.js';
import type { PostingQueue } from './posting-queue.js';
import type { AssetRef, HistoryRow, PostingCondition, PostingLeg, PostingResult, PostingSummary, WalletRef, WebhookCall } from './ledger.types.js';
import { MINT_ADDRESS } from './ledger.types.js';
import { UuidRule } from '../shared/ids.js';
import { checkField } from '../shared/validation.js';
import { minorAmount, requireWallets, resolveContext, resolveMovement, type AmountSource } from './movement.js';
import { refusal } from './posting-refusal.js';
import { checkConditions, resolveConditions, type ConditionInput } from './conditions.js';

export type { AmountSource } from './movement.js';

export interface TransferInput extends Annotations {
  projectId: number;
  currency: string;
  from: string;
  to: string;
  amount: number | string;
  /** Judged once the transfer is done, last (CONTRACT §28); at most 10. */
  conditions?: ConditionInput[] | null;
}

export interface SeedInput extends Annotations {
  projectId: number;
  currency: string;
  to: string;
  amount: number | string;
}

export interface BatchInput {
  projectId: number;
  transfers: (Omit<TransferInput, 'projectId'>)[];
}

export interface ReverseInput extends Annotations {
  projectId: number;
  amount?: number | string | null;
}

/** How a posting verb runs. */
export interface PostingOptions {
  /** A dry run (CONTRACT §24): every check against the current state, the real answer, nothing written (PostingQueue.post). */
  dryRun?: boolean;
}

export interface TransferOptions extends PostingOptions {
  /** The sender's and the receiver's required wallet types (webhook flows). */
  fromType?: WalletRef['type'];
  toType?: WalletRef['type'];
  amount?: AmountSource;
  /** A webhook call to store with the posting, in its transaction (CONTRACT §16). */
  record?: (posting: PostingSummary) => WebhookCall;
}

export const MAX_BATCH_LEGS = 100;

/** Money movement: transfers, seeds, batches and reversals. Every posting goes through the PostingQueue. */
export class PostingService {
  constructor(
    private readonly postings: PostingRepository,
    private readonly history: HistoryRepository,
    private readonly queue: PostingQueue,
  ) {}

  /**
   * Moves `amount` between two wallets of one project; the sender's available funds never go below
   * zero. `record` (webhook flows) describes the call to store in the posting's own transaction.
   */
  async transfer(principal: Principal, input: TransferInput, options: TransferOptions = {}): Promise<HistoryRow> {
    const notes = checkAnnotations(input);
    const checked = checkConditions(input.conditions);
    const { context, asset, from, to, amount } = await resolveMovement(this.postings, principal, { ...input, amount: options.amount ?? input.amount });
    if (options.fromType && from.type !== options.fromType) throw validationError('from', `must be a ${options.fromType} wallet`);
    if (options.toType && to.type !== options.toType) throw validationError('to', `must be a ${options.toType} wallet`);
    const conditions = await resolveConditions(this.postings, principal, context.projectId, checked, [from, to], asset);
    const call = options.record?.({ amount, asset, fromAddress: from.address, toAddress: to.address });
    const request: PostingLeg = { kind: 'transfer', projectId: context.projectId, assetId: asset.id, fromWalletId: from.id, toWalletId: to.id, amount, requestKey: nextPostingKey(), ...notes, call, conditions };
    return this.queue.post(request, options.dryRun ?? false, (result) => {
      if (result.code !== 'ok') throw refusal(result, asset.fractions);
      return posted(result, context, asset, from, to, amount, from.id, result.fromBalance!, notes);
    });
  }

  /** Mints `amount` from @mint into a system wallet. */
  async seed(principal: Principal, input: SeedInput, options: PostingOptions = {}): Promise<HistoryRow> {
    const notes = checkAnnotations(input);
    checkReferences({ to: input.to }, input.currency);
    const context = await resolveContext(this.postings, principal, input.projectId, input.currency, null, input.to);
    const asset = context.asset!;
    const amount = minorAmount(input.amount, asset);
    const { to } = requireWallets(context, null, input.to);
    if (to.type !== 'system') throw validationError('to', 'must be a system wallet');
    const request: PostingLeg = { kind: 'seed', projectId: context.projectId, assetId: asset.id, fromWalletId: null, toWalletId: to.id, amount, requestKey: nextPostingKey(), ...notes };
    return this.queue.post(request, options.dryRun ?? false, (result) => {
      if (result.code !== 'ok') throw refusal(result, asset.fractions);
      return posted(result, context, asset, null, to, amount, to.id, result.toBalance!, notes);
    });
  }

  /**
   * 1–100 transfers in one database transaction, in order (a later leg may spend what an earlier
   * one credited); the first refused leg refuses all, with its error and `details.index`.
   */
  async batch(principal: Principal, input: BatchInput, options: PostingOptions = {}): Promise<HistoryRow[]> {
    if (!Array.isArray(input.transfers) || input.transfers.length < 1 || input.transfers.length > MAX_BATCH_LEGS) {
      throw validationError('transfers', `must hold 1 to ${MAX_BATCH_LEGS} transfers`);
    }
    const legs: { movement: Awaited<ReturnType<typeof resolveMovement>>; notes: ReturnType<typeof checkAnnotations>; conditions?: PostingCondition[] }[] = [];
    // Fields of every leg first (400), then existence (404), then the state (409): each with its leg's index.
    const checked = input.transfers.map((leg, index) => atLeg(index, () => checkAnnotations(leg, `transfers.${index}.`)));
    const conditionsOf = input.transfers.map((leg, index) => atLeg(index, () => checkConditions(leg.conditions, `transfers.${index}.`)));
    for (const [index, leg] of input.transfers.entries()) {
      const field = `transfers.${index}.`;
      const movement = await atLegAsync(index, () => resolveMovement(this.postings, principal, { ...leg, projectId: input.projectId }, field));
      // a leg's conditions name its own parties; they see what the batch's earlier legs did
      const conditions = await atLegAsync(index, () => resolveConditions(this.postings, principal, movement.context.projectId, conditionsOf[index], [movement.from, movement.to], movement.asset, field));
      legs.push({ movement, notes: checked[index], conditions });
    }
    const seen = new Map<string, number>();
    for (const [index, { notes }] of legs.entries()) {
      if (notes.reference === null) continue;
      if (seen.has(notes.reference)) throw conflict('the reference is repeated within the batch', { index, field: `transfers.${index}.reference` });
      seen.set(notes.reference, index);
    }
    const requestLegs: PostingLeg[] = legs.map(({ movement: m, notes, conditions }) => ({
      kind: 'transfer',
      projectId: m.context.projectId,
      assetId: m.asset.id,
      fromWalletId: m.from.id,
      toWalletId: m.to.id,
      amount: m.amount,
      requestKey: nextPostingKey(),
      ...notes,
      conditions,
    }));
    return this.queue.post({ kind: 'group', legs: requestLegs }, options.dryRun ?? false, (result) => {
      if (result.code !== 'ok') {
        const index = Number(result.detail?.index ?? 0);
        throw refusal(result, legs[index]?.movement.asset.fractions ?? 0);
      }
      return legs.map(({ movement: m, notes }, i) => posted(result.legs![i], m.context, m.asset, m.from, m.to, m.amount, m.from.id, result.legs![i].fromBalance!, notes));
    });
  }

  /**
   * A new transaction from the original's receiver back to its sender (@mint for a seed), of
   * `amount` or, without one, all that is still reversible; the cap is checked before funds.
   */
  async reverse(principal: Principal, id: string, input: ReverseInput, options: PostingOptions = {}): Promise<HistoryRow> {
    checkField('id', UuidRule, id);
    const notes = checkAnnotations(input);
    const [original] = await this.history.byIds(principal.ownerId, [id]);
    if (!original || original.projectId !== input.projectId) throw notFound('transaction', id);
    const asset: AssetRef = { id: original.assetId, symbol: original.symbol, fractions: original.fractions };
    const amount = input.amount == null ? null : minorAmount(input.amount, asset);
    if (original.toWalletId === null || original.reverses !== null) throw conflict('this transaction cannot be reversed (it is itself a reversal)');
    const request: PostingLeg = {
      kind: 'reverse',
      projectId: original.projectId,
      assetId: original.assetId,
      fromWalletId: original.toWalletId,
      toWalletId: original.fromWalletId,
      amount,
      target: original.id,
      requestKey: nextPostingKey(),
      ...notes,
    };
    // read back in the posting's own transaction on a dry run: the reversal exists only there
    return this.queue.post(request, options.dryRun ?? false, async (result) => {
      if (result.code !== 'ok') throw refusal(result, asset.fractions);
      const [reversal] = await this.history.byIds(principal.ownerId, [result.id!]);
      return { ...reversal, walletId: original.toWalletId!, balance: result.fromBalance! };
    });
  }
}

/** A refusal of leg `index` of a batch carries `details.index`. */
function atLeg<T>(index: number, run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw withIndex(error, index);
  }
}

async function atLegAsync<T>(index: number, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw withIndex(error, index);
  }
}

function withIndex(error: unknown, index: number): unknown {
  return error instanceof LedgerError ? new LedgerError(error.code, error.message, { ...error.details, index }) : error;
}

function posted(result: PostingResult, context: PostingContext, asset: AssetRef, from: WalletRef | null, to: WalletRef, amount: bigint, walletId: string, balance: bigint, notes: Annotations): HistoryRow {
  return {
    walletId,
    id: result.id!,
    seq: result.seq!,
    projectId: context.projectId,
    assetId: asset.id,
    symbol: asset.symbol,
    fractions: asset.fractions,
    amount,
    fromWalletId: from?.id ?? null,
    toWalletId: to.id,
    fromAddress: from?.address ?? MINT_ADDRESS,
    toAddress: to.address,
    balance,
    date: result.postedAt!,
    reverses: null,
    reversedAmount: 0n,
    reference: notes.reference ?? null,
    metadata: notes.metadata ?? {},
  };
}
