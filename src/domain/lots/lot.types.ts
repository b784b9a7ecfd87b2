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
