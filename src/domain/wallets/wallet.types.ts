import type { z } from 'zod';
import type { Wallet } from '../../db/entities.js';
import type { CreateWalletRules, SetWalletStatusRules, WalletSliceRules, WalletStatusRule, WalletTypeRule } from './wallet.rules.js';

export type WalletType = z.infer<typeof WalletTypeRule>;
export type WalletStatus = z.infer<typeof WalletStatusRule>;
export type CreateWalletInput = z.input<typeof CreateWalletRules>;
export type SetWalletStatusInput = z.input<typeof SetWalletStatusRules>;
export type WalletSliceInput = z.input<typeof WalletSliceRules>;

export interface WalletView {
  id: string;
  projectId: number;
  ownerId: string;
  address: string;
  type: WalletType;
  status: WalletStatus;
  /** Its wallet group (CONTRACT §29), null when none. */
  groupId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** One page of a project's wallets for a Relay connection; `cursor` is opaque (creation order). */
export interface WalletSlice {
  edges: { node: WalletView; cursor: string }[];
  totalCount: number;
  hasNextPage: boolean;
}

export function toWalletView(wallet: Wallet): WalletView {
  return {
    id: wallet.id,
    projectId: wallet.projectId,
    ownerId: wallet.ownerId,
    address: wallet.address,
    type: wallet.type as WalletType,
    status: wallet.status as WalletStatus,
    groupId: wallet.groupId ?? null,
    createdAt: wallet.createdAt,
    updatedAt: wallet.updatedAt,
  };
}
