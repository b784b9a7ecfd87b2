import type { BalanceAsOfRow, BalanceRow, HistoryRow } from '../domain/ledger/ledger.types.js';
import { toMajor } from '../domain/money.js';

/** REST JSON shapes of ledger rows (CONTRACT §3): major units, addresses, ISO timestamps. */
export interface TransactionJson {
  id: string;
  amount: number;
  currency: string;
  balance: number;
  from: string;
  to: string;
  date: string;
  reverses: string | null;
  reversedAmount: number;
  reference: string | null;
  metadata: Record<string, unknown>;
}

export interface BalanceJson {
  account: string;
  currency: string;
  balance: number;
  held: number;
  available: number;
}

export type BalanceAsOfJson = Pick<BalanceJson, 'account' | 'currency' | 'balance'>;

export function transactionJson(row: HistoryRow): TransactionJson {
  return {
    id: row.id,
    amount: toMajor(row.amount, row.fractions),
    currency: row.symbol,
    balance: toMajor(row.balance, row.fractions),
    from: row.fromAddress,
    to: row.toAddress,
    date: row.date.toISOString(),
    reverses: row.reverses,
    reversedAmount: toMajor(row.reversedAmount, row.fractions),
    reference: row.reference,
    metadata: row.metadata,
  };
}

export function balanceJson(row: BalanceRow): BalanceJson {
  return {
    account: row.address,
    currency: row.symbol,
    balance: toMajor(row.amount, row.fractions),
    held: toMajor(row.held, row.fractions),
    available: toMajor(row.amount - row.held, row.fractions),
  };
}

/** A balance as of a time (CONTRACT §14): the posted balance, without what describes the present (holds). */
export function balanceAsOfJson(row: BalanceAsOfRow): BalanceAsOfJson {
  return { account: row.address, currency: row.symbol, balance: toMajor(row.amount, row.fractions) };
}

export function pagination(page: number, limit: number, total: number) {
  return { page, limit, total, totalPages: total === 0 ? 0 : Math.ceil(total / limit) };
}
