import type { z } from 'zod';
import type { CreateGroupRules, ListGroupsRules, UpdateGroupRules } from './wallet-group.rules.js';

export type CreateGroupInput = z.input<typeof CreateGroupRules>;
export type UpdateGroupInput = z.input<typeof UpdateGroupRules>;
export type ListGroupsInput = z.input<typeof ListGroupsRules>;

/** A group of wallets (CONTRACT §29). */
export interface WalletGroupView {
  id: string;
  projectId: number;
  name: string;
  parentId: string | null;
  metadata: Record<string, unknown> | null;
  /** 1 for a root. */
  depth: number;
  /** The wallets of the whole subtree. */
  wallets: number;
  seq: string;
  createdAt: Date;
}

/**
 * One currency of a group's roll-up: the sums over every wallet of its subtree, in minor units
 * (numeric sums: past 2^63 is possible). `held` null in a read as of a time.
 */
export interface GroupBalanceView {
  groupId: string;
  assetId: string;
  symbol: string;
  fractions: number;
  amount: bigint;
  held: bigint | null;
  wallets: number;
}

export interface WalletGroupDetail extends WalletGroupView {
  balances: GroupBalanceView[];
  /** Its direct subgroups, oldest first. */
  groups: WalletGroupView[];
}

/** Why a tree change was refused (the service turns these into errors). */
export type TreeRefusal = 'project' | 'group' | 'parent' | 'wallet' | 'quota' | 'cycle' | 'depth' | 'not_member' | 'not_empty';
