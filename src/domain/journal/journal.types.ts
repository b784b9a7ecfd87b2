import type { HistoryRow } from '../ledger/ledger.types.js';

/** One place in a project's journal (CONTRACT §22): `seq` from 1, without gaps. */
export interface JournalEntry {
  seq: string;
  transactionId: string;
  hash: string;
  prevHash: string;
}

export interface JournalPageQuery {
  projectId: number;
  /** A `seq`: the entries after it (default 0, from the first). */
  after?: number | string;
  /** 1–100, default 20. */
  limit?: number;
}

export interface JournalPage {
  entries: JournalEntry[];
  after: string;
  /** The `after` of the next page: the last entry's seq, or `after` itself on an empty page. */
  nextAfter: string;
  hasMore: boolean;
}

/** What verify found (CONTRACT §22): the whole chain sound, or its first break. */
export type VerifyReport =
  | { ok: true; entries: number; lastSeq: number; lastHash: string }
  | { ok: false; entries: number; reason: 'hash_mismatch' | 'balance_mismatch'; seq: number | null; transactionId: string | null; walletId: string | null };

/** A stored entry with its transaction as it is now (null: the row is gone). */
export interface StoredEntry extends JournalEntry {
  transaction: HistoryRow | null;
}

/** A wallet's stored balance in one currency, less what the transactions after the verified chain moved. */
export interface JournaledBalance {
  walletId: string;
  address: string;
  /** null: the wallet has no balance row. */
  assetId: string | null;
  amount: bigint | null;
}

/** A project's last entry. */
export interface JournalHead {
  seq: bigint;
  hash: string;
}

/** Where the writer's next entries come from: transactions of the pre-outbox backlog, or of the event stream. */
export interface SourceBatch {
  source: 'backlog' | 'stream';
  /** Rows (events or backlog rows) read: the batch was full when it equals the limit. */
  scanned: number;
  /** The position read up to (a stream_pos or a backlog pos), null when nothing was read. */
  upTo: string | null;
  /** The transactions to journal, in order. */
  transactions: HistoryRow[];
}

/** A new entry as the writer computed it. */
export interface NewEntry {
  projectId: number;
  seq: bigint;
  transactionId: string;
  hash: string;
  prevHash: string;
}
