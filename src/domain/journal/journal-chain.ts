import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { minorToFixedString } from '../money.js';
import type { HistoryRow } from '../ledger/ledger.types.js';
import { transactionJson } from '../ledger/transaction-json.js';

/** The `prevHash` of a project's first entry (CONTRACT §22). */
export const GENESIS_HASH = '0'.repeat(64);

/** What a journal entry's hash covers: the transaction object's own fields, `amount` as exact text. */
export interface JournalFields {
  id: string;
  date: string;
  from: string;
  to: string;
  amount: string;
  currency: string;
  reference: string | null;
  reverses: string | null;
  metadata: Record<string, unknown>;
}

/**
 * The fields as the transaction object prints them (transactionJson: the same text the API and the
 * export show), except `amount`: a string with exactly the asset's `fractions` decimals, so that no
 * reader's number parsing can change it.
 */
export function journalFields(row: HistoryRow): JournalFields {
  const { id, date, from, to, currency, reference, reverses, metadata } = transactionJson(row);
  return { id, date, from, to, amount: minorToFixedString(row.amount, row.fractions), currency, reference, reverses, metadata };
}

/** RFC 8785 (JCS) text of a transaction's fields. */
export function canonicalText(row: HistoryRow): string {
  return canonicalize(journalFields(row))!;
}

/** Lower-case hex SHA-256 of `prevHash + "\n" + canonical` (UTF-8). */
export function chainHash(prevHash: string, canonical: string): string {
  return createHash('sha256').update(`${prevHash}\n${canonical}`, 'utf8').digest('hex');
}

export const entryHash = (prevHash: string, row: HistoryRow): string => chainHash(prevHash, canonicalText(row));
