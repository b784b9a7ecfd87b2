import type { EntityManager } from '@mikro-orm/postgresql';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

/** The owner's wallets of each type, as counted on the owner row (migration 6; wallets are never deleted). */
export interface OwnerWalletCounts {
  customer: number;
  system: number;
}

const WALLET_COUNTER = { customer: 'customer_wallet_count', system: 'system_wallet_count' } as const;

/**
 * The owner row: the lock that serialises an owner's creations, and its wallet counters. Built
 * over the caller's unit of work (`new OwnerRepository(em)` inside its transaction): the lock
 * is held until that transaction ends.
 */
export class OwnerRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * Serialises the owner's creations (projects, wallets) so that quota checks are exact under
   * concurrency, and reads the wallet counts that only move under this lock. NO KEY UPDATE
   * conflicts with itself but not with the KEY SHARE locks that foreign-key checks take, so it
   * never blocks unrelated inserts.
   */
  async lock(ownerId: string): Promise<OwnerWalletCounts> {
    const [owner] = await this.em.execute<{ customer: string; system: string }[]>(
      'SELECT customer_wallet_count AS customer, system_wallet_count AS system FROM owners WHERE id = ? FOR NO KEY UPDATE',
      [ownerId],
    );
    return { customer: Number(owner?.customer ?? 0), system: Number(owner?.system ?? 0) };
  }

  /** Counts a new wallet on the owner row; the caller holds the owner lock (`lock`) in the same transaction. */
  async countNewWallet(ownerId: string, type: keyof typeof WALLET_COUNTER): Promise<void> {
    const column = WALLET_COUNTER[type];
    await this.em.execute(`UPDATE owners SET ${column} = ${column} + 1 WHERE id = ?`, [ownerId]);
  }
}

/** Sample calls: src/queries/owner.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
export const SQL_SAMPLES = sqlSamples({
  open: (_db, em) => new OwnerRepository(em),
  calls: {
    lock: (r) => r.lock(SAMPLE.owner),
    countNewWallet: (r) => r.countNewWallet(SAMPLE.owner, 'customer'),
  },
});
