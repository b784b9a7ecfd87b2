import type { Principal } from '../auth/api-key.service.js';
import type { HistoryService } from '../ledger/history.service.js';
import { checkReferences } from '../ledger/ledger.rules.js';
import type { WalletService } from '../wallets/wallet.service.js';
import type { LotRepository } from './lot.repository.js';
import type { LotKey, LotRow } from './lot.types.js';

/**
 * Reads of lots (CONTRACT §15). Lots are written only by the posting rules, in the database
 * (src/domain/lots/*.sql, called by ledger_post and the sweeper).
 */
export class LotService {
  constructor(
    private readonly repository: LotRepository,
    private readonly wallets: WalletService,
    private readonly history: HistoryService,
  ) {}

  /**
   * A wallet's live lots in one currency (default: the project's primary asset), earliest expiry
   * first. A system wallet's funds never expire: it has none.
   */
  async lotsOf(principal: Principal, walletId: string, currency?: string): Promise<LotRow[]> {
    checkReferences({}, currency);
    const wallet = await this.wallets.get(principal, walletId);
    const assetId = await this.history.currencyOf(principal, wallet.projectId, wallet.id, currency);
    if (wallet.type === 'system') return [];
    return this.repository.live([{ walletId: wallet.id, assetId }], null);
  }

  /** The first `first` live lots of many balances, one statement, aligned with `keys`; callers have checked tenancy. */
  async expiringOf(keys: readonly LotKey[], first: number): Promise<LotRow[][]> {
    const rows = await this.repository.live(keys, first);
    const byKey = new Map<string, LotRow[]>();
    for (const row of rows) {
      const key = `${row.walletId}/${row.assetId}`;
      const list = byKey.get(key);
      if (list) list.push(row);
      else byKey.set(key, [row]);
    }
    return keys.map((k) => byKey.get(`${k.walletId}/${k.assetId}`) ?? []);
  }
}
