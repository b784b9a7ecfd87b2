import type { Principal } from '../auth/api-key.service.js';
import { LedgerError, notFound, validationError } from '../errors.js';
import { toMinor } from '../money.js';
import { nextPostingKey } from '../idempotency/request-scope.js';
import { type LedgerRepository, type PostingContext } from './ledger.repository.js';
import { checkReferences } from './ledger.rules.js';
import type { PostingQueue } from './posting-queue.js';
import type { AssetRef, BalanceAsOfRow, BalanceRow, HistoryRow, PostingCode, PostingResult, PostingSummary, TransactionRow, WalletRef, WebhookCall } from './ledger.types.js';
import { groupByWallet, MINT_ADDRESS } from './ledger.types.js';
import { asOfRefusal, checkAsOf, type AsOfWallet } from './as-of.rules.js';
import { isUuid } from '../shared/ids.js';

export interface TransferInput {
  projectId: number;
  currency: string;
  from: string;
  to: string;
  amount: number | string;
}

export interface SeedInput {
  projectId: number;
  currency: string;
  to: string;
  amount: number | string;
}

/** Where a posting's amount comes from: major units, or already-converted minor units (webhook fiat). */
export type AmountSource = number | string | ((asset: AssetRef) => bigint);

export interface TransferOptions {
  /** The sender's and the receiver's required wallet types (webhook flows). */
  fromType?: WalletRef['type'];
  toType?: WalletRef['type'];
  amount?: AmountSource;
  /** A webhook call to store with the posting, in its transaction (CONTRACT §16). */
  record?: (posting: PostingSummary) => WebhookCall;
}

export interface HistoryQuery {
  walletId: string;
  projectId?: number;
  currency?: string;
  page: number;
  limit: number;
}

export interface HistoryPage {
  balance: BalanceRow;
  rows: HistoryRow[];
  total: number;
}

/** A history as of a time (CONTRACT §14): the balance and the total are those after the cut. */
export interface HistoryAsOfPage {
  balance: BalanceAsOfRow;
  rows: HistoryRow[];
  total: number;
}

/** What a wallet showed at an instant: every balance, and its newest transactions then. */
export interface ActivityAsOf {
  balances: BalanceAsOfRow[];
  recent: HistoryRow[];
}

const REFUSALS: Record<Exclude<PostingCode, 'ok'>, () => LedgerError> = {
  insufficient_funds: () => new LedgerError('insufficient_funds', 'the sender does not have enough funds'),
  wallet_inactive: () => new LedgerError('wallet_inactive', 'both wallets must be active'),
  balance_overflow: () => new LedgerError('conflict', 'the receiving balance would exceed its maximum'),
  asset_missing: () => new LedgerError('not_found', 'currency not found (the asset was deleted)'),
  request_key_mismatch: () => new LedgerError('conflict', 'this idempotent request already made a different posting'),
};

/** A posting's outcome as the contract names it: `posted`, or the error code of its refusal. */
export const postingOutcome = (code: PostingCode): string => (code === 'ok' ? 'posted' : REFUSALS[code]().code);

/** Money movement: transfers, seeds and histories. The only writer of balances. */
export class LedgerService {
  constructor(
    private readonly repository: LedgerRepository,
    private readonly queue: PostingQueue,
  ) {}

  /**
   * Moves `amount` between two wallets of one project; the sender never goes below zero.
   * `record` (webhook flows) describes the call to store in the posting's own transaction.
   */
  async transfer(principal: Principal, input: TransferInput, options: TransferOptions = {}): Promise<HistoryRow> {
    checkReferences({ from: input.from, to: input.to }, input.currency);
    if (input.from === input.to) throw validationError('to', 'must be a different wallet than from');
    // Contract order: fields (400) before existence (404); the amount's decimals need the asset.
    const context = await this.resolve(principal, input.projectId, input.currency, input.from, input.to);
    const asset = context.asset!;
    const amount = minorAmount(options.amount ?? input.amount, asset);
    const wallets = requireWallets(context, input.from, input.to);
    const from = wallets.from!; // a transfer names its sender
    const to = wallets.to;
    if (from.id === to.id) throw validationError('to', 'must be a different wallet than from');
    if (options.fromType && from.type !== options.fromType) throw validationError('from', `must be a ${options.fromType} wallet`);
    if (options.toType && to.type !== options.toType) throw validationError('to', `must be a ${options.toType} wallet`);
    const call = options.record?.({ amount, asset, fromAddress: from.address, toAddress: to.address });
    const result = await this.queue.submit({ projectId: context.projectId, assetId: asset.id, fromWalletId: from.id, toWalletId: to.id, amount, requestKey: nextPostingKey(), call });
    return posted(result, context, from.id, from.id, from.address, amount, result.fromBalance);
  }

  /** Mints `amount` from @mint into a system wallet. */
  async seed(principal: Principal, input: SeedInput): Promise<HistoryRow> {
    checkReferences({ to: input.to }, input.currency);
    const context = await this.resolve(principal, input.projectId, input.currency, null, input.to);
    const asset = context.asset!;
    const amount = minorAmount(input.amount, asset);
    const { to } = requireWallets(context, null, input.to);
    if (to.type !== 'system') throw validationError('to', 'must be a system wallet');
    const result = await this.queue.submit({ projectId: context.projectId, assetId: asset.id, fromWalletId: null, toWalletId: to.id, amount, requestKey: nextPostingKey() });
    return posted(result, context, to.id, null, MINT_ADDRESS, amount, result.toBalance);
  }

  /** A wallet's balance in one currency and one page of its history in it, newest first. */
  async history(principal: Principal, query: HistoryQuery): Promise<HistoryPage> {
    const { wallet, assetId } = await this.historyOf(principal, query);
    const balances = await this.repository.balances([wallet.id]);
    const balance = balances.find((b) => b.assetId === assetId);
    if (!balance) throw notFound('currency', query.currency);
    const rows = await this.repository.page(wallet.id, assetId, query.limit, (query.page - 1) * query.limit);
    return { balance, rows, total: balance.transactionCount };
  }

  /**
   * `history` as it was at `asOf` (CONTRACT §14): the balance and total after the wallet's last
   * transaction in that currency at or before `asOf`, and a page of the history up to it.
   */
  async historyAsOf(principal: Principal, query: HistoryQuery & { asOf: Date }): Promise<HistoryAsOfPage> {
    const { wallet, assetId } = await this.historyOf(principal, query);
    checkAsOf(query.asOf, wallet);
    const [balance] = await this.repository.balancesAsOf([wallet.id], query.asOf, assetId);
    if (!balance) throw notFound('currency', query.currency);
    const rows = balance.cutSeq === null ? [] : await this.repository.page(wallet.id, assetId, query.limit, (query.page - 1) * query.limit, after(balance.cutSeq));
    return { balance, rows, total: balance.transactionCount };
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

  private async resolve(principal: Principal, projectId: number, currency: string, fromRef: string | null, toRef: string): Promise<PostingContext> {
    const context = await this.repository.resolvePosting(principal.ownerId, projectId, currency, fromRef, toRef);
    if (!context) throw notFound('project', projectId);
    if (!context.asset) throw notFound('currency', currency);
    return context;
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
  private async findWallet(principal: Principal, walletId: string, projectId?: number): Promise<{ id: string; projectId: number; createdAt: Date }> {
    const rows = await this.repository.findWallet(principal.ownerId, walletId, isUuid(walletId) ? walletId : null, projectId ?? null);
    if (rows) return rows;
    if (projectId === undefined && !isUuid(walletId)) throw validationError('projectId', 'is required when walletId is an address');
    throw notFound('wallet', walletId);
  }
}

/** The resolved wallets of a posting, or 404 for the one that names no wallet of the project. */
function requireWallets(context: PostingContext, fromRef: string | null, toRef: string): { from: WalletRef | null; to: WalletRef } {
  if (fromRef !== null && !context.from) throw notFound('wallet', fromRef);
  if (!context.to) throw notFound('wallet', toRef);
  return { from: context.from, to: context.to };
}

/** The first `seq` after `seq`: a history up to and including a cut is the rows before it. */
const after = (seq: string): string => (BigInt(seq) + 1n).toString();

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

function minorAmount(source: AmountSource, asset: AssetRef): bigint {
  return typeof source === 'function' ? source(asset) : toMinor(source, asset.fractions);
}

function posted(result: PostingResult, context: PostingContext, walletId: string, fromWalletId: string | null, fromAddress: string, amount: bigint, balance: bigint | undefined): HistoryRow {
  if (result.code !== 'ok') throw REFUSALS[result.code]();
  const asset = context.asset!;
  return {
    walletId,
    id: result.id!,
    seq: result.seq!,
    projectId: context.projectId,
    assetId: asset.id,
    symbol: asset.symbol,
    fractions: asset.fractions,
    amount,
    fromWalletId,
    toWalletId: context.to!.id,
    fromAddress,
    toAddress: context.to!.address,
    balance: balance!,
    date: result.postedAt!,
  };
}
