import type { Principal } from '../auth/api-key.service.js';
import { conflict, LedgerError, notFound, validationError } from '../errors.js';
import { nextPostingKey } from '../idempotency/request-scope.js';
import { type LedgerRepository, type PostingContext } from './ledger.repository.js';
import { checkAnnotations, checkReferences, type Annotations } from './ledger.rules.js';
import type { PostingQueue } from './posting-queue.js';
import type { AssetRef, BalanceAsOfRow, BalanceRow, HistoryRow, PostingLeg, PostingResult, PostingSummary, TransactionRow, WalletRef, WebhookCall } from './ledger.types.js';
import { groupByWallet, MINT_ADDRESS } from './ledger.types.js';
import { asOfRefusal, checkAsOf, type AsOfWallet } from './as-of.rules.js';
import { isUuid, UuidRule } from '../shared/ids.js';
import { checkField } from '../shared/validation.js';
import { checkPaging, pageOf, windowOf, type Paging } from '../shared/paging.js';
import { minorAmount, refusal, requireWallets, resolveContext, resolveMovement, type AmountSource } from './movement.js';

export type { AmountSource } from './movement.js';

export interface TransferInput extends Annotations {
  projectId: number;
  currency: string;
  from: string;
  to: string;
  amount: number | string;
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

export interface HistoryFilter {
  walletId: string;
  projectId?: number;
  currency?: string;
  reference?: string;
}

/** By page (REST, CONTRACT §7) or by keyset (GraphQL, issue 19). */
export type HistoryQuery = HistoryFilter & Paging;

export interface HistoryPage {
  balance: BalanceRow;
  rows: HistoryRow[];
  total: number;
  hasMore: boolean;
}

/** A history as of a time (CONTRACT §14): the balance and the total are those after the cut. */
export interface HistoryAsOfPage {
  balance: BalanceAsOfRow;
  rows: HistoryRow[];
  total: number;
  hasMore: boolean;
}

/** What a wallet showed at an instant: every balance, and its newest transactions then. */
export interface ActivityAsOf {
  balances: BalanceAsOfRow[];
  recent: HistoryRow[];
}

export const MAX_BATCH_LEGS = 100;

/** Money movement: transfers, seeds, batches, reversals and histories. Every posting goes through the PostingQueue. */
export class LedgerService {
  constructor(
    private readonly repository: LedgerRepository,
    private readonly queue: PostingQueue,
  ) {}

  /**
   * Moves `amount` between two wallets of one project; the sender's available funds never go below
   * zero. `record` (webhook flows) describes the call to store in the posting's own transaction.
   */
  async transfer(principal: Principal, input: TransferInput, options: TransferOptions = {}): Promise<HistoryRow> {
    const notes = checkAnnotations(input);
    const { context, asset, from, to, amount } = await resolveMovement(this.repository, principal, { ...input, amount: options.amount ?? input.amount });
    if (options.fromType && from.type !== options.fromType) throw validationError('from', `must be a ${options.fromType} wallet`);
    if (options.toType && to.type !== options.toType) throw validationError('to', `must be a ${options.toType} wallet`);
    const call = options.record?.({ amount, asset, fromAddress: from.address, toAddress: to.address });
    const request: PostingLeg = { kind: 'transfer', projectId: context.projectId, assetId: asset.id, fromWalletId: from.id, toWalletId: to.id, amount, requestKey: nextPostingKey(), ...notes, call };
    return this.queue.post(request, options.dryRun ?? false, (result) => {
      if (result.code !== 'ok') throw refusal(result, asset.fractions);
      return posted(result, context, asset, from, to, amount, from.id, result.fromBalance!, notes);
    });
  }

  /** Mints `amount` from @mint into a system wallet. */
  async seed(principal: Principal, input: SeedInput, options: PostingOptions = {}): Promise<HistoryRow> {
    const notes = checkAnnotations(input);
    checkReferences({ to: input.to }, input.currency);
    const context = await resolveContext(this.repository, principal, input.projectId, input.currency, null, input.to);
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
    const legs: { movement: Awaited<ReturnType<typeof resolveMovement>>; notes: ReturnType<typeof checkAnnotations> }[] = [];
    // Fields of every leg first (400), then existence (404), then the state (409): each with its leg's index.
    const checked = input.transfers.map((leg, index) => atLeg(index, () => checkAnnotations(leg, `transfers.${index}.`)));
    for (const [index, leg] of input.transfers.entries()) {
      const movement = await atLegAsync(index, () => resolveMovement(this.repository, principal, { ...leg, projectId: input.projectId }, `transfers.${index}.`));
      legs.push({ movement, notes: checked[index] });
    }
    const seen = new Map<string, number>();
    for (const [index, { notes }] of legs.entries()) {
      if (notes.reference === null) continue;
      if (seen.has(notes.reference)) throw conflict('the reference is repeated within the batch', { index, field: `transfers.${index}.reference` });
      seen.set(notes.reference, index);
    }
    const requestLegs: PostingLeg[] = legs.map(({ movement: m, notes }) => ({
      kind: 'transfer',
      projectId: m.context.projectId,
      assetId: m.asset.id,
      fromWalletId: m.from.id,
      toWalletId: m.to.id,
      amount: m.amount,
      requestKey: nextPostingKey(),
      ...notes,
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
    const [original] = await this.repository.byIds(principal.ownerId, [id]);
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
      const [reversal] = await this.repository.byIds(principal.ownerId, [result.id!]);
      return { ...reversal, walletId: original.toWalletId!, balance: result.fromBalance! };
    });
  }

  /** A wallet's balance in one currency and one page of its history in it (or its transaction with `reference`), newest first. */
  async history(principal: Principal, query: HistoryQuery): Promise<HistoryPage> {
    if (query.reference !== undefined) checkAnnotations({ reference: query.reference });
    const paging = checkPaging(query);
    const { wallet, assetId } = await this.historyOf(principal, query);
    const balances = await this.repository.balances([wallet.id]);
    const balance = balances.find((b) => b.assetId === assetId);
    if (!balance) throw notFound('currency', query.currency);
    const { limit, offset, before } = windowOf(paging);
    if (query.reference !== undefined) {
      const found = await this.repository.byReference(wallet.id, assetId, wallet.projectId, query.reference);
      const rows = found.filter((row) => before === null || BigInt(row.seq) < BigInt(before)).slice(offset, offset + limit);
      return { balance, ...pageRows(paging, rows, found.length) };
    }
    const rows = await this.repository.page(wallet.id, assetId, limit, offset, before);
    return { balance, ...pageRows(paging, rows, balance.transactionCount) };
  }

  /**
   * `history` as it was at `asOf` (CONTRACT §14): the balance and total after the wallet's last
   * transaction in that currency at or before `asOf`, and a page of the history up to it.
   */
  async historyAsOf(principal: Principal, query: HistoryQuery & { asOf: Date }): Promise<HistoryAsOfPage> {
    const paging = checkPaging(query);
    const { wallet, assetId } = await this.historyOf(principal, query);
    checkAsOf(query.asOf, wallet);
    const [balance] = await this.repository.balancesAsOf([wallet.id], query.asOf, assetId);
    if (!balance) throw notFound('currency', query.currency);
    const { limit, offset, before } = windowOf(paging);
    // the history up to the cut, and of that what lies before the cursor
    const bound = balance.cutSeq === null ? null : earlier(after(balance.cutSeq), before);
    const rows = bound === null ? [] : await this.repository.page(wallet.id, assetId, limit, offset, bound);
    return { balance, ...pageRows(paging, rows, balance.transactionCount) };
  }

  /** One wallet as it was at `asOf`: every balance and its newest `limit` transactions (two statements); callers have checked tenancy. */
  async activityAsOf(wallet: AsOfWallet, asOf: Date, limit: number): Promise<ActivityAsOf> {
    checkAsOf(asOf, wallet);
    const [balances, recent] = await Promise.all([this.repository.balancesAsOf([wallet.id], asOf), this.repository.recentAsOf([wallet.id], limit, asOf)]);
    return { balances, recent };
  }

  /**
   * Balances of many wallets as of `asOf` (one statement), aligned with `wallets`: each wallet's,
   * or the refusal of a wallet that cannot be read then (a batch mixes wallets of any age).
   * Callers have checked tenancy.
   */
  balancesAsOf(wallets: readonly AsOfWallet[], asOf: Date): Promise<(BalanceAsOfRow[] | LedgerError)[]> {
    return readAsOf(wallets, asOf, (ids) => this.repository.balancesAsOf(ids, asOf));
  }

  /** `recentOf` as of `asOf` (one statement), aligned with `wallets` like `balancesAsOf`; callers have checked tenancy. */
  recentAsOf(wallets: readonly AsOfWallet[], limit: number, asOf: Date, beforeSeq: readonly (string | null)[] = []): Promise<(HistoryRow[] | LedgerError)[]> {
    return readAsOf(wallets, asOf, (ids, positions) => this.repository.recentAsOf(ids, limit, asOf, positions.map((i) => beforeSeq[i] ?? null)));
  }

  /**
   * The asset id of a currency of the wallet's project: `currency` names one of its symbols
   * (404 when it has none such); absent, the project's primary asset (404 when it has none yet).
   */
  async currencyOf(principal: Principal, projectId: number, walletId: string, currency: string | undefined): Promise<string> {
    if (currency !== undefined) {
      const context = await this.repository.resolvePosting(principal.ownerId, projectId, currency, null, walletId);
      if (!context?.asset) throw notFound('currency', currency);
      return context.asset.id;
    }
    const assetId = await this.repository.primaryAssetId(projectId);
    if (!assetId) throw new LedgerError('not_found', 'the project has no asset yet; pass currency', { projectId });
    return assetId;
  }

  /**
   * One transaction by id, read through `byId` (by default one statement; GraphQL passes its
   * per-request loader, which batches the ids of one request). A malformed id is a
   * validation_error; another owner's id is not_found, exactly as a missing one (tenancy).
   */
  async transaction(principal: Principal, id: string, byId = async (wanted: string) => (await this.transactionsByIds(principal, [wanted]))[0]): Promise<TransactionRow> {
    checkField('id', UuidRule, id);
    const row = await byId(id);
    if (!row) throw notFound('transaction', id);
    return row;
  }

  /** Transactions by id, in the order asked, one statement; another owner's (or a missing) id is null. */
  async transactionsByIds(principal: Principal, ids: readonly string[]): Promise<(TransactionRow | null)[]> {
    const rows = await this.repository.byIds(principal.ownerId, ids);
    const byId = new Map(rows.map((row) => [row.id.toLowerCase(), row]));
    return ids.map((id) => byId.get(String(id).toLowerCase()) ?? null);
  }

  /** Balances of many wallets (any number, one statement); callers have checked tenancy. */
  balancesOf(walletIds: readonly string[]): Promise<BalanceRow[]> {
    return this.repository.balances(walletIds);
  }

  /** The newest `limit` transactions of many wallets (one statement); callers have checked tenancy. */
  recentOf(walletIds: readonly string[], limit: number, beforeSeq?: readonly (string | null)[], assetId?: string | null): Promise<HistoryRow[]> {
    return this.repository.recent(walletIds, limit, beforeSeq, assetId ?? null);
  }

  /** How many transactions each wallet has, in every currency (one statement); callers have checked tenancy. */
  transactionCountsOf(walletIds: readonly string[]): Promise<number[]> {
    return this.repository.transactionCounts(walletIds);
  }

  /** The wallet and the currency (default: the project's primary) a history is about. */
  private async historyOf(principal: Principal, query: HistoryQuery): Promise<{ wallet: { id: string; projectId: number; createdAt: Date }; assetId: string }> {
    checkReferences({ walletId: query.walletId }, query.currency);
    const wallet = await this.findWallet(principal, query.walletId, query.projectId);
    return { wallet, assetId: await this.currencyOf(principal, wallet.projectId, wallet.id, query.currency) };
  }

  /**
   * `walletId` is a wallet id first; otherwise, or when no wallet of the caller has that id,
   * an address within `projectId`.
   */
  async findWallet(principal: Principal, walletId: string, projectId?: number): Promise<{ id: string; projectId: number; createdAt: Date }> {
    const rows = await this.repository.findWallet(principal.ownerId, walletId, isUuid(walletId) ? walletId : null, projectId ?? null);
    if (rows) return rows;
    if (projectId === undefined && !isUuid(walletId)) throw validationError('projectId', 'is required when walletId is an address');
    throw notFound('wallet', walletId);
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

/** The first `seq` after `seq`: a history up to and including a cut is the rows before it. */
const after = (seq: string): string => (BigInt(seq) + 1n).toString();

/** The earlier of two `before` bounds (null: none). */
const earlier = (a: string, b: string | null): string => (b === null || BigInt(a) < BigInt(b) ? a : b);

function pageRows(paging: Paging, rows: HistoryRow[], total: number): { rows: HistoryRow[]; total: number; hasMore: boolean } {
  const page = pageOf(paging, rows, total);
  return { rows: page.items, total, hasMore: page.hasMore };
}

/**
 * Reads the wallets that can be read at `asOf` in one call (`read` gets their ids and their
 * positions in `wallets`) and answers each wallet its rows, or why it cannot be read then.
 */
async function readAsOf<R extends { walletId: string }>(
  wallets: readonly AsOfWallet[],
  asOf: Date,
  read: (ids: string[], positions: number[]) => Promise<R[]>,
): Promise<(R[] | LedgerError)[]> {
  const refusals = wallets.map((wallet) => asOfRefusal(asOf, wallet));
  const positions = wallets.flatMap((_, i) => (refusals[i] ? [] : [i]));
  const ids = positions.map((i) => wallets[i].id);
  const rows = ids.length ? groupByWallet(ids, await read(ids, positions)) : [];
  const byPosition = new Map(positions.map((position, k) => [position, rows[k]]));
  return wallets.map((_, i) => refusals[i] ?? byPosition.get(i)!);
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
