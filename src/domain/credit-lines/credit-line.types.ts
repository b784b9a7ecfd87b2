/** PUT /wallets/{id}/credit-line and setCreditLine (CONTRACT §28): `limit` in major units, 0 removes the line. */
export interface SetCreditLineInput {
  projectId: number;
  currency: string;
  limit: number | string;
}

/** A wallet's credit line in one currency, as the route answers it: minor units here. */
export interface CreditLineView {
  walletId: string;
  currency: string;
  fractions: number;
  limit: bigint;
}

/** Why the repository did not set a line (the service maps each to its contract error). */
export type CreditLineRefusal = 'wallet_closed' | 'asset_expiring' | 'asset_missing';
