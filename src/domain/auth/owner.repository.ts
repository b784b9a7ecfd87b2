import type { EntityManager } from '@mikro-orm/postgresql';

/** The owner's wallets of each type, as counted on the owner row (migration 6; wallets are never deleted). */
export interface OwnerWalletCounts {
  customer: number;
  system: number;
}

/**
 * Serialises the owner's creations (projects, wallets) so that quota checks are exact under
 * concurrency, and reads the wallet counts that only move under this lock. NO KEY UPDATE
 * conflicts with itself but not with the KEY SHARE locks that foreign-key checks take, so it
 * never blocks unrelated inserts.
 */
export async function lockOwner(em: EntityManager, ownerId: string): Promise<OwnerWalletCounts> {
  const [owner] = await em.execute<{ customer: string; system: string }[]>(
    'SELECT customer_wallet_count AS customer, system_wallet_count AS system FROM owners WHERE id = ? FOR NO KEY UPDATE',
    [ownerId],
  );
  return { customer: Number(owner?.customer ?? 0), system: Number(owner?.system ?? 0) };
}

const WALLET_COUNTER = { customer: 'customer_wallet_count', system: 'system_wallet_count' } as const;

/** Counts a new wallet on the owner row; the caller holds the owner lock (lockOwner) in the same transaction. */
export async function countNewWallet(em: EntityManager, ownerId: string, type: keyof typeof WALLET_COUNTER): Promise<void> {
  const column = WALLET_COUNTER[type];
  await em.execute(`UPDATE owners SET ${column} = ${column} + 1 WHERE id = ?`, [ownerId]);
}
