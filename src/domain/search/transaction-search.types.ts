import type { HistoryRow } from '../ledger/ledger.types.js';

/** One `metadata.<key>=<text>` filter (CONTRACT §21). */
export interface MetadataPair {
  key: string;
  value: string;
}

/**
 * The filters of CONTRACT §21, combined with AND; only `projectId` is required. Wallet references
 * are ids or addresses of the project; `from` may be `@mint`, `to` `@expired` or `@mint`. Amounts
 * are major units as decimal text (exact: never a float). `since ≤ date < until`.
 */
export interface TransactionFilter {
  projectId: number;
  walletId?: string;
  from?: string;
  to?: string;
  currency?: string;
  minAmount?: string;
  maxAmount?: string;
  since?: Date;
  until?: Date;
  reference?: string;
  referencePrefix?: string;
  reverses?: string;
  metadata?: MetadataPair[];
}

export interface SearchQuery extends TransactionFilter {
  /** 1–100. */
  limit: number;
  /** The opaque `nextAfter` of the previous page, or nothing for the first. */
  after?: string | null;
}

export interface SearchPage {
  rows: HistoryRow[];
  /** The cursor after the page's last row (the `after` asked for on an empty page). */
  nextAfter: string | null;
  hasMore: boolean;
}

export interface ExportRange {
  projectId: number;
  since?: Date;
  until?: Date;
}

/** A side of a transaction a filter names: a wallet of the project, or a reserved address. */
export type Side = { wallet: string } | { reserved: '@mint' | '@expired' };

/**
 * The filters once resolved against the project (wallet ids, the asset, minor-unit or exact decimal
 * bounds, the keyset position): what the repository turns into SQL.
 */
export interface ResolvedFilter {
  projectId: number;
  walletId: string | null;
  from: Side | null;
  to: Side | null;
  assetId: string | null;
  /** Bounds as exact decimal text in major units (compared against each row's asset's fractions). */
  minAmount: string | null;
  maxAmount: string | null;
  since: Date | null;
  until: Date | null;
  reference: string | null;
  referencePrefix: string | null;
  reverses: string | null;
  /** Each pair, with the JSON objects (any one) the row's metadata must contain: what the GIN index finds. */
  metadata: (MetadataPair & { alternatives: string[] })[];
  /** Rows strictly older than this (date, seq) position; null: from the newest. */
  before: { date: Date; seq: string } | null;
}
