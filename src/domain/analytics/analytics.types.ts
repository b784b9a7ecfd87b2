/** Program analytics (CONTRACT §23): what the domain answers, in minor units; REST and GraphQL print it. */
export type AnalyticsInterval = 'day' | 'hour';

/** The classes of flows (the view analytics_postings, Migration20261126173000_analytics). */
export interface AnalyticsFlows {
  issued: bigint;
  redeemed: bigint;
  transferred: bigint;
  expired: bigint;
  reversed: bigint;
}

export const FLOW_CLASSES = ['issued', 'redeemed', 'transferred', 'expired', 'reversed'] as const satisfies readonly (keyof AnalyticsFlows)[];

/** One bucket of the series: [start, start + interval), empty ones included. */
export interface AnalyticsBucket extends AnalyticsFlows {
  start: Date;
  /** Customer wallets on either side of a posting in the bucket (each counted once). */
  activeWallets: number;
}

export interface AnalyticsTotals extends AnalyticsFlows {
  /** The customers' total balance at `until` (every posting dated before it). */
  outstanding: bigint;
  /** outstanding ÷ exchangeRate, exact decimal text with at most 2 decimals; null without supportExchangeRate. */
  outstandingValue: string | null;
}

export interface ProgramAnalytics {
  currency: string;
  fractions: number;
  interval: AnalyticsInterval;
  since: Date;
  until: Date;
  /** The project's rate as stored (exact decimal text), null without supportExchangeRate. */
  exchangeRate: string | null;
  totals: AnalyticsTotals;
  series: AnalyticsBucket[];
}

/** The request, as either transport gives it (absent = default). */
export interface AnalyticsQuery {
  projectId: number;
  currency?: string;
  since?: Date;
  until?: Date;
  interval?: string;
}

/** A project and the currency asked for (its primary asset by default), as the repository reads them. */
export interface AnalyticsSubject {
  exchangeRate: string;
  supportExchangeRate: boolean;
  asset: { id: string; symbol: string; fractions: number } | null;
}

/** What the rollups hold for a range: the buckets that had postings, and the liability at `until`. */
export interface RollupRead {
  buckets: AnalyticsBucket[];
  outstandingAtUntil: bigint;
}
