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
  /** Wallets left for the next round because another transaction held their lock. */
  skipped: number;
  /** The round took as many due lots as it could: more may be due now. */
  fullRound: boolean;
  /** Largest delay between a lot's `expires_at` and the posting of its expiry; null when none was posted. */
  maxLagMs: number | null;
}
