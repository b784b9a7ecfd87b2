import type { BalanceAsOfRow, BalanceRow } from '../domain/ledger/ledger.types.js';
import { toMajor } from '../domain/money.js';

/** REST JSON shapes of ledger rows (CONTRACT §3): major units, addresses, ISO timestamps. The transaction's lives in the domain (the journal hashes it). */
export { transactionJson, type TransactionJson } from '../domain/ledger/transaction-json.js';

export interface BalanceJson {
  account: string;
  currency: string;
  balance: number;
  held: number;
  available: number;
}

export type BalanceAsOfJson = Pick<BalanceJson, 'account' | 'currency' | 'balance'>;

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
