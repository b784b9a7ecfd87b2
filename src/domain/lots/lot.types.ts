/** Lots of points that expire (CONTRACT §15), as the repository returns them; amounts are bigint minor units. */

export interface LotRow {
  walletId: string;
  assetId: string;
  fractions: number;
  amount: bigint;
  /** What is left of it, points reserved by pending holds included. */
  remaining: bigint;
  expiresAt: Date;
  createdAt: Date;
}

/** One (wallet, asset) whose live lots are asked for. */
export interface LotKey {
  walletId: string;
  assetId: string;
}

/** One call of lots_sweep (src/domain/lots/lots_sweep.sql). */
export interface SweepRound {
  /** Expiry transactions posted. */
  expired: number;
  /** Holds past their expiry released (each wrote its `hold.expired`). */
  released: number;
  /** Wallets with due work left for a later round because another transaction held their lock. */
  skipped: number;
  /** The round took as many wallets or due lots as it could: more may be due now. */
  fullRound: boolean;
  /** Largest delay between a lot's or hold's `expires_at` and the round that handled it; null when it handled none. */
  maxLagMs: number | null;
}
