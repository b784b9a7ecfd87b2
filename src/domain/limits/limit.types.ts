/** Money leaving the wallet (`debit`) or arriving (`credit`), CONTRACT §19. */
export const LIMIT_DIRECTIONS = ['debit', 'credit'] as const;
export type LimitDirection = (typeof LIMIT_DIRECTIONS)[number];

/** A spending or earning limit; `walletId` null: every customer wallet of the project. Amounts in minor units. */
export interface LimitView {
  id: string;
  projectId: number;
  walletId: string | null;
  assetId: string;
  currency: string;
  fractions: number;
  direction: LimitDirection;
  amount: bigint;
  windowSeconds: number;
  createdAt: Date;
}

/** A limit that applies to a wallet now, with what the wallet used of it (CONTRACT §19 `GET /wallets/{id}/limits`). */
export interface LimitUsageView extends LimitView {
  /** The wallet this usage is of (the limit's own walletId may be null: a project-wide limit). */
  usageWalletId: string;
  used: bigint;
  /** amount − used, never below 0. */
  remaining: bigint;
}

/** Major units (a number or an exact decimal) as the transports hand them over. */
export interface CreateLimitInput {
  projectId: number;
  currency: string;
  direction: string;
  amount: unknown;
  windowSeconds: number;
  walletId?: string | null;
}

export interface LimitListQuery {
  projectId: number;
  walletId?: string;
}
