import { z } from 'zod';
import { toMajor } from '../domain/money.js';
import type { GroupBalanceView, WalletGroupDetail, WalletGroupView } from '../domain/wallet-groups/wallet-group.types.js';

/** A wallet group (CONTRACT §29). */
export const WalletGroupBody = z
  .object({
    id: z.string(),
    projectId: z.number().int(),
    name: z.string(),
    parentId: z.string().nullable().meta({ description: 'null: a root' }),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'WalletGroup' });

/** One currency of a group's roll-up: sums over every wallet of the group and of its subgroups, at every depth. */
export const GroupBalanceBody = z
  .object({
    currency: z.string(),
    balance: z.number(),
    held: z.number().optional().meta({ description: 'Omitted with asOf' }),
    available: z.number().optional().meta({ description: 'balance − held; omitted with asOf' }),
    incoming: z.number().optional().meta({ description: 'Pending credits to the wallets (CONTRACT §26); omitted with asOf' }),
    wallets: z.number().int().meta({ description: 'How many wallets the subtree has' }),
  })
  .meta({ id: 'GroupBalance' });

export const WalletGroupDetailBody = WalletGroupBody.extend({
  balances: z.array(GroupBalanceBody),
  groups: z.array(z.object({ id: z.string(), name: z.string() })).meta({ description: 'Its direct subgroups, oldest first' }),
}).meta({ id: 'WalletGroupDetail' });

export function walletGroupJson(group: WalletGroupView) {
  return {
    id: group.id,
    projectId: group.projectId,
    name: group.name,
    parentId: group.parentId,
    metadata: group.metadata,
    created_at: group.createdAt.toISOString(),
  };
}

/** `held` null (a read as of a time): only the posted balance. `incoming` is 0 until pending credits (§26) are kept on balances. */
export function groupBalanceJson(row: GroupBalanceView) {
  const balance = toMajor(row.amount, row.fractions);
  if (row.held === null) return { currency: row.symbol, balance, wallets: row.wallets };
  return { currency: row.symbol, balance, held: toMajor(row.held, row.fractions), available: toMajor(row.amount - row.held, row.fractions), incoming: 0, wallets: row.wallets };
}

export function walletGroupDetailJson(group: WalletGroupDetail) {
  return { ...walletGroupJson(group), balances: group.balances.map(groupBalanceJson), groups: group.groups.map(({ id, name }) => ({ id, name })) };
}
