/** What a monitor watches (CONTRACT §20): the posted balance, or balance − held. */
export const MONITOR_FIELDS = ['balance', 'available'] as const;
export type MonitorField = (typeof MONITOR_FIELDS)[number];

/** The monitor's condition is `field operator value`; it crosses when a change makes it true. */
export const MONITOR_OPERATORS = ['lt', 'lte', 'gt', 'gte'] as const;
export type MonitorOperator = (typeof MONITOR_OPERATORS)[number];

/** A balance monitor; `walletId` null: every customer wallet of the project. `value` in minor units. */
export interface BalanceMonitorView {
  id: string;
  seq: string;
  projectId: number;
  walletId: string | null;
  assetId: string;
  symbol: string;
  fractions: number;
  field: MonitorField;
  operator: MonitorOperator;
  value: bigint;
  createdAt: Date;
}

export interface CreateBalanceMonitorInput {
  projectId: number;
  currency: string;
  field: string;
  operator: string;
  /** Major units (a JSON number, a GraphQL Decimal's text, or the exact text of a long number). */
  value: unknown;
  walletId?: string | null;
}

export interface BalanceMonitorListQuery {
  projectId: number;
  walletId?: string | null;
  page: number;
  limit: number;
}

/**
 * One crossing (the data of a `balance.threshold_crossed` event): the monitor's condition as it
 * was, and the field's values just before and after the change, in minor units.
 */
export interface CrossingView {
  id: string;
  monitorId: string;
  walletId: string;
  address: string;
  symbol: string;
  fractions: number;
  field: MonitorField;
  operator: MonitorOperator;
  value: bigint;
  previous: bigint;
  current: bigint;
  transactionId: string | null;
  holdId: string | null;
}
