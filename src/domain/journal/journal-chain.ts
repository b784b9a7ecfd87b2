import { hash } from 'node:crypto';
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

/**
 * RFC 8785 (JCS) text of a transaction's fields. The nine member names are fixed ASCII, so their
 * JCS order (UTF-16 code units) is written out, and each string is JSON.stringify's text, which
 * is JCS's (a stored text is never an unpaired surrogate: storable-text.ts); only `metadata`,
 * arbitrary JSON, goes through the `canonicalize` package. The same text as canonicalize of the
 * whole object, at a third of the cost (verify's budget, CONTRACT §22), checked against an
 * independent implementation by test/domain/journal/journal-chain.test.ts.
 */
export function canonicalText(row: HistoryRow): string {
  const f = journalFields(row);
  const text = JSON.stringify;
  return `{"amount":${text(f.amount)},"currency":${text(f.currency)},"date":${text(f.date)},"from":${text(f.from)},"id":${text(f.id)},"metadata":${canonicalize(f.metadata)},"reference":${text(f.reference)},"reverses":${text(f.reverses)},"to":${text(f.to)}}`;
}

/** Lower-case hex SHA-256 of `prevHash + "\n" + canonical` (UTF-8). */
export function chainHash(prevHash: string, canonical: string): string {
  return hash('sha256', `${prevHash}\n${canonical}`, 'hex');
}

export const entryHash = (prevHash: string, row: HistoryRow): string => chainHash(prevHash, canonicalText(row));
