import type { HoldView } from '../domain/holds/hold.types.js';
import type { BalanceAsOfRow, BalanceRow, HistoryRow, TransactionRow } from '../domain/ledger/ledger.types.js';
import type { LotRow } from '../domain/lots/lot.types.js';
import { minorToDecimalString } from '../domain/money.js';

/**
 * What the Transaction and Balance types resolve from: plain JSON-safe objects (amounts as
 * decimal strings of major units, see scalars.ts), so a mutation's result can be stored for an
 * idempotent replay and read back identically.
 */
export interface TransactionModel {
  id: string;
  projectId: number;
  amount: string;
  currency: string;
  from: string;
  to: string;
  date: Date | string;
  /** The resulting balance of the wallet whose history lists it. */
  balance: string | null;
  fromWalletId: string | null;
  /** null: back to @mint (a seed's reversal) or to @expired (an expiry). */
  toWalletId: string | null;
  /** Relay cursor position within a wallet's history. */
  seq: string;
  reverses: string | null;
  reversedAmount: string;
  reference: string | null;
  metadata: Record<string, unknown>;
}

export interface BalanceModel {
  walletId: string;
  assetId: string;
  account: string;
  currency: string;
  balance: string;
  /** Null on a balance read as of a time (CONTRACT §14): they describe the present. */
  held: string | null;
  available: string | null;
  creditLimit: string | null;
  /** Pending holds to the wallet (CONTRACT §26); null as of a time. */
  incoming: string | null;
}

export function transactionModel(row: HistoryRow): TransactionModel {
  return { ...transactionByIdModel(row), balance: minorToDecimalString(row.balance, row.fractions) };
}

/** A transaction read by id (federation references): no wallet's history, so no running balance. */
export function transactionByIdModel(row: TransactionRow): TransactionModel {
  return {
    id: row.id,
    projectId: row.projectId,
    amount: minorToDecimalString(row.amount, row.fractions),
    currency: row.symbol,
    from: row.fromAddress,
    to: row.toAddress,
    date: row.date,
    balance: null,
    fromWalletId: row.fromWalletId,
    toWalletId: row.toWalletId,
    seq: row.seq,
    reverses: row.reverses,
    reversedAmount: minorToDecimalString(row.reversedAmount, row.fractions),
    reference: row.reference,
    metadata: row.metadata,
  };
}

export interface LotModel {
  amount: string;
  remaining: string;
  expiresAt: Date;
  createdAt: Date;
}

export function lotModel(row: LotRow): LotModel {
  return { amount: minorToDecimalString(row.amount, row.fractions), remaining: minorToDecimalString(row.remaining, row.fractions), expiresAt: row.expiresAt, createdAt: row.createdAt };
}

export function balanceModel(row: BalanceRow): BalanceModel {
  return {
    walletId: row.walletId,
    assetId: row.assetId,
    account: row.address,
    currency: row.symbol,
    balance: minorToDecimalString(row.amount, row.fractions),
    held: minorToDecimalString(row.held, row.fractions),
    available: minorToDecimalString(row.amount - row.held + row.creditLimit, row.fractions),
    creditLimit: minorToDecimalString(row.creditLimit, row.fractions),
    incoming: minorToDecimalString(row.incoming, row.fractions),
  };
}

export interface HoldModel {
  id: string;
  projectId: number;
  amount: string;
  currency: string;
  from: string;
  to: string;
  status: HoldView['status'];
  capturedAmount: string;
  transactionId: string | null;
  expiresAt: Date | string | null;
  maturesAt: Date | string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  reference: string | null;
  metadata: Record<string, unknown>;
}

export function holdModel(hold: HoldView): HoldModel {
  return {
    id: hold.id,
    projectId: hold.projectId,
    amount: minorToDecimalString(hold.amount, hold.fractions),
    currency: hold.symbol,
    from: hold.from,
    to: hold.to,
    status: hold.status,
    capturedAmount: minorToDecimalString(hold.capturedAmount, hold.fractions),
    transactionId: hold.transactionId,
    expiresAt: hold.expiresAt,
    maturesAt: hold.maturesAt,
    createdAt: hold.createdAt,
    updatedAt: hold.updatedAt,
    reference: hold.reference,
    metadata: hold.metadata,
  };
}

/** A balance as of a time: the posted balance; the fields of the present (held, available, creditLimit) stay unset, so null. */
export function balanceAsOfModel(row: BalanceAsOfRow): BalanceModel {
  return { walletId: row.walletId, assetId: row.assetId, account: row.address, currency: row.symbol, balance: minorToDecimalString(row.amount, row.fractions), held: null, available: null, creditLimit: null, incoming: null };
}
