import { z } from 'zod';
import { WalletStatusRule, WalletTypeRule } from '../domain/wallets/wallet.rules.js';
import type { WalletView } from '../domain/wallets/wallet.types.js';

/** A wallet without its balances (CONTRACT §3), as a `wallet.status_changed` event carries it too. */
export const WalletBody = z
  .object({
    id: z.string(),
    address: z.string(),
    type: WalletTypeRule,
    status: WalletStatusRule,
    projectId: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Wallet' });

export type WalletJson = z.infer<typeof WalletBody>;

export function walletJson(wallet: WalletView): WalletJson {
  return {
    id: wallet.id,
    address: wallet.address,
    type: wallet.type,
    status: wallet.status,
    projectId: wallet.projectId,
    created_at: wallet.createdAt.toISOString(),
    updated_at: wallet.updatedAt.toISOString(),
  };
}
