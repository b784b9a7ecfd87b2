/** Ledger rows as the repository returns them; amounts are bigint minor units. */

export interface WalletRef {
  id: string;
  address: string;
  type: 'customer' | 'system';
  status: 'active' | 'suspended' | 'closed';
}

export interface AssetRef {
  id: string;
  symbol: string;
  fractions: number;
}

export interface BalanceRow {
  walletId: string;
  address: string;
  assetId: string;
  symbol: string;
  fractions: number;
  amount: bigint;
  /** Pending, unexpired holds of the wallet as sender in this currency (available = amount − held + creditLimit). */
  held: bigint;
  /** The wallet's credit line in this currency (CONTRACT §28; 0 without one): how far below zero it may go. */
  creditLimit: bigint;
  /** Pending holds *to* the wallet in this currency, maturing or not (CONTRACT §26): read side only (pendingIncoming). */
  incoming: bigint;
  /** Transactions that moved this balance (sent or received, in this currency). */
  transactionCount: number;
}

/**
 * A wallet's balance in one currency as it was at an instant (CONTRACT §14): the running balance
 * and count after its last transaction at or before it (`cutSeq`, null when there was none).
 * Holds describe the present, so they are no part of it.
 */
export interface BalanceAsOfRow extends Pick<BalanceRow, 'walletId' | 'address' | 'assetId' | 'symbol' | 'fractions' | 'amount' | 'transactionCount'> {
  cutSeq: string | null;
}

/** A wallet's transactions in every currency: the sum of its per-currency counts (each transaction moves one currency). */
export const transactionTotal = (balances: readonly Pick<BalanceRow, 'transactionCount'>[]): number => balances.reduce((total, balance) => total + balance.transactionCount, 0);

/** What every movement of money carries, a transaction's or a hold's; `W` is its wallet ids' type. */
export interface Movement<W = string | null> {
  id: string;
  seq: string;
  projectId: number;
  assetId: string;
  symbol: string;
  fractions: number;
  amount: bigint;
  fromWalletId: W;
  toWalletId: W;
}

/**
 * One transaction as seen from one wallet's history (`balance` is that wallet's resulting
 * balance). A null `fromWalletId` is @mint (a seed); a null `toWalletId` means the points left
 * the ledger, back to @mint (the reversal of a seed) or to @expired (an expiry, CONTRACT §15).
 */
export interface HistoryRow extends Movement {
  walletId: string;
  fromAddress: string;
  toAddress: string;
  balance: bigint;
  date: Date;
  /** The original transaction this one reverses, or null. */
  reverses: string | null;
  /** Minor units reversed so far by later reversals of this one. */
  reversedAmount: bigint;
  reference: string | null;
  metadata: Record<string, unknown>;
}

/** A transaction read by id, outside any one wallet's history (no running balance). */
export type TransactionRow = Omit<HistoryRow, 'walletId' | 'balance'>;

/** What one posting request does (see ledger_apply.sql). */
export type PostingKind = 'transfer' | 'seed' | 'hold' | 'capture' | 'void' | 'reverse';

/** One posting request: an element of a `ledger_post` batch. */
export interface PostingLeg {
  kind: PostingKind;
  projectId: number;
  assetId: string;
  /** null: the reserved @mint source (a seed). The wallets to lock for capture/void/reverse. */
  fromWalletId: string | null;
  /** null: @mint (the reversal of a seed). */
  toWalletId: string | null;
  /** null: the default (a capture's whole hold, a reversal's whole remaining cap). */
  amount: bigint | null;
  /** The idempotent request making this posting, if any (a retry finds its posting by it). */
  requestKey: string | null;
  /** The hold (capture, void) or the original transaction (reverse). */
  target?: string | null;
  reference?: string | null;
  metadata?: Record<string, unknown> | null;
  /** Seconds until a hold expires (null: never). */
  expiresIn?: number | null;
  /** A maturing hold (CONTRACT §26): seconds after its creation, or an instant. */
  matureIn?: number;
  matureAt?: Date;
  /** A webhook call to store in the posting's own transaction (webhook_post.sql), if any. */
  call?: WebhookCall;
  /** Judged after the posting, last (CONTRACT §28, ledger_conditions.sql); absent or empty: none. */
  conditions?: PostingCondition[];
}

/** A condition on a party's balance once the posting is done (CONTRACT §28), resolved: minor units. */
export interface PostingCondition {
  walletId: string;
  assetId: string;
  /** The asset's fractions: a refusal's `actual` in major units. */
  fractions: number;
  field: ConditionField;
  op: ConditionOp;
  value: bigint;
}

export const CONDITION_FIELDS = ['balance', 'available'] as const;
export type ConditionField = (typeof CONDITION_FIELDS)[number];
export const CONDITION_OPS = ['gte', 'gt', 'lte', 'lt', 'eq'] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];
/** At most this many conditions on one posting or batch leg (CONTRACT §28). */
export const MAX_CONDITIONS = 10;

/** An inbound webhook call stored as a successful event with the transaction it posted (CONTRACT §5, §16). */
export interface WebhookCall {
  ownerId: string;
  flowId: string;
  values: Record<string, unknown>;
  message: string;
}

/** What a posting moves, once resolved: what a webhook call's message describes. */
export interface PostingSummary {
  amount: bigint;
  asset: AssetRef;
  fromAddress: string;
  toAddress: string;
}

/** Legs that all post or none does, in order (an atomic batch, §12). */
export interface PostingGroup {
  kind: 'group';
  legs: PostingLeg[];
}

/** What PostingQueue carries: a single request or an atomic group of them. */
export type PostingRequest = PostingLeg | PostingGroup;

export type PostingCode =
  | 'ok'
  | 'wallet_inactive'
  | 'insufficient_funds'
  | 'balance_overflow'
  | 'asset_missing'
  | 'request_key_mismatch'
  | 'reference_taken'
  | 'hold_missing'
  | 'hold_not_pending'
  | 'hold_expired'
  | 'not_reversible'
  | 'reversal_exceeds'
  | 'limit_exceeded'
  | 'condition_failed';

export interface PostingResult {
  code: PostingCode;
  id?: string;
  seq?: string;
  fromBalance?: bigint;
  toBalance?: bigint;
  postedAt?: Date;
  holdId?: string;
  /** Refusal details from the database (existingId, reversible in minor units, a group's index). */
  detail?: Record<string, unknown>;
  /** A group's legs' results, in order (when it posted). */
  legs?: PostingResult[];
}

export const MINT_ADDRESS = '@mint';
/** The reserved address expired points go to (CONTRACT §15): an expiry has no receiving wallet. */
export const EXPIRED_ADDRESS = '@expired';

/** The wallet rows `ledger_post` locks for a request: every leg's sender and receiver (PostingQueue keeps batches in flight apart by them). */
export function walletsOf(request: PostingRequest): string[] {
  const legs = request.kind === 'group' ? request.legs : [request];
  const wallets = new Set<string>();
  for (const leg of legs) {
    if (leg.fromWalletId !== null) wallets.add(leg.fromWalletId);
    if (leg.toWalletId !== null) wallets.add(leg.toWalletId);
  }
  return [...wallets];
}

/** Rows of many wallets, grouped per wallet in the order of `walletIds` (an empty list where none). */
export function groupByWallet<T extends { walletId: string }>(walletIds: readonly string[], rows: readonly T[]): T[][] {
  const byWallet = new Map<string, T[]>();
  for (const row of rows) {
    const list = byWallet.get(row.walletId);
    if (list) list.push(row);
    else byWallet.set(row.walletId, [row]);
  }
  return walletIds.map((id) => byWallet.get(id) ?? []);
}
