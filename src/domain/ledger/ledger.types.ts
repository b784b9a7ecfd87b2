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

/** One transaction as seen from one wallet's history (`balance` is that wallet's resulting balance). */
export interface HistoryRow {
  walletId: string;
  id: string;
  seq: string;
  projectId: number;
  assetId: string;
  symbol: string;
  fractions: number;
  amount: bigint;
  fromWalletId: string | null;
  /** null: an expiry, to the reserved address @expired (CONTRACT §15). */
  toWalletId: string | null;
  fromAddress: string;
  toAddress: string;
  balance: bigint;
  date: Date;
}

/** A transaction read by id, outside any one wallet's history (no running balance). */
export type TransactionRow = Omit<HistoryRow, 'walletId' | 'balance'>;

export interface PostingRequest {
  projectId: number;
  assetId: string;
  /** null: the reserved @mint source (a seed). */
  fromWalletId: string | null;
  toWalletId: string;
  amount: bigint;
  /** The idempotent request making this posting, if any (a retry finds its posting by it). */
  requestKey: string | null;
  /** A webhook call to store in the posting's own transaction (webhook_post.sql), if any. */
  call?: WebhookCall;
}

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

export type PostingCode = 'ok' | 'wallet_inactive' | 'insufficient_funds' | 'balance_overflow' | 'asset_missing' | 'request_key_mismatch';

export interface PostingResult {
  code: PostingCode;
  id?: string;
  seq?: string;
  fromBalance?: bigint;
  toBalance?: bigint;
  postedAt?: Date;
}

export const MINT_ADDRESS = '@mint';
/** The reserved address expired points go to (CONTRACT §15): an expiry has no receiving wallet. */
export const EXPIRED_ADDRESS = '@expired';

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
