import type { Principal } from '../auth/api-key.service.js';
import { LedgerError, notFound } from '../errors.js';
import type { OwnershipService } from '../ownership/ownership.service.js';
import type { HistoryRepository } from './history.repository.js';
import type { PostingRepository } from './posting.repository.js';
import { checkAnnotations, checkReferences } from './ledger.rules.js';
import type { BalanceAsOfRow, BalanceRow, HistoryRow, TransactionRow } from './ledger.types.js';
import { groupByWallet } from './ledger.types.js';
import { asOfRefusal, checkAsOf, type AsOfWallet } from './as-of.rules.js';
import { UuidRule } from '../shared/ids.js';
import { checkField } from '../shared/validation.js';
import { checkPaging, pageOf, windowOf, type Paging } from '../shared/paging.js';

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

/** Reading money movement: balances and histories of wallets (now and as of a time), transactions by id. */
export class HistoryService {
  constructor(
    private readonly repository: HistoryRepository,
    private readonly postings: PostingRepository,
    private readonly ownership: OwnershipService,
  ) {}

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
      const context = await this.postings.resolvePosting(principal.ownerId, projectId, currency, null, walletId);
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
    const wallet = await this.ownership.wallet(principal, query.walletId, query.projectId);
    return { wallet, assetId: await this.currencyOf(principal, wallet.projectId, wallet.id, query.currency) };
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
