import { toMajor } from '../money.js';
import type { HistoryRow } from './ledger.types.js';

/**
 * The transaction object of the contract (CONTRACT §3): major units, addresses, ISO timestamps.
 * Below the transports because more than REST prints it: the journal's hashes (CONTRACT §22)
 * take their fields' text from here, so a hash covers exactly what the API shows.
 */
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
