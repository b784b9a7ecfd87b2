import type { HoldView } from '../domain/holds/hold.types.js';
import DataLoader from 'dataloader';
import type { Principal } from '../domain/auth/api-key.service.js';
import type { AssetView } from '../domain/assets/asset.types.js';
import { groupByWallet, type BalanceRow, type HistoryRow, type TransactionRow } from '../domain/ledger/ledger.types.js';
import type { ProjectView } from '../domain/projects/project.types.js';
import type { WalletSlice, WalletType, WalletView } from '../domain/wallets/wallet.types.js';
import type { Services } from '../services.js';

/** A wallet's page of recent transactions: `first` rows (plus one, to tell a next page) older than `beforeSeq`. */
export interface RecentKey {
  walletId: string;
  first: number;
  beforeSeq: string | null;
}

export interface WalletSliceKey {
  projectId: number;
  type: WalletType | null;
  first: number;
  afterSeq: string | null;
}

/**
 * Per-request DataLoaders, one per relation. Each batch is one service call and one SQL
 * statement whatever the number of parents; keys that need different SQL parameters (page size,
 * wallet type) are grouped, so a page of N wallets asking the same page size costs one statement.
 * Every loader is scoped to the caller: another owner's id loads as null (or an empty list).
 */
export interface Loaders {
  project: DataLoader<number, ProjectView | null>;
  asset: DataLoader<string, AssetView | null>;
  wallet: DataLoader<string, WalletView | null>;
  transaction: DataLoader<string, TransactionRow | null>;
  hold: DataLoader<string, HoldView | null>;
  assetsOfProject: DataLoader<number, AssetView[]>;
  walletsOfProject: DataLoader<WalletSliceKey, WalletSlice, string>;
  balances: DataLoader<string, BalanceRow[]>;
  recentTransactions: DataLoader<RecentKey, HistoryRow[], string>;
  transactionCounts: DataLoader<string, number>;
}

export function createLoaders(principal: Principal, services: Services): Loaders {
  const { ownerId } = principal;
  return {
    project: new DataLoader((ids) => services.projects.getMany(ownerId, ids)),
    asset: new DataLoader((ids) => services.assets.getMany(ownerId, ids)),
    wallet: new DataLoader((ids) => services.wallets.getMany(ownerId, ids)),
    transaction: new DataLoader((ids) => services.ledger.transactionsByIds(principal, ids)),
    hold: new DataLoader((ids) => services.holds.getMany(ownerId, ids)),
    assetsOfProject: new DataLoader((projectIds) => services.assets.listByProjects(ownerId, projectIds)),
    walletsOfProject: new DataLoader(
      (keys) =>
        inGroups(
          keys,
          (key) => `${key.type}/${key.first}/${key.afterSeq}`,
          (group) => {
            const { type, first, afterSeq } = group[0];
            return services.wallets.listByProjects(ownerId, group.map((key) => key.projectId), { type: type ?? undefined, first, after: afterSeq });
          },
        ),
      { cacheKeyFn: (key) => `${key.projectId}/${key.type}/${key.first}/${key.afterSeq}` },
    ),
    balances: new DataLoader(async (walletIds) => groupByWallet(walletIds, await services.ledger.balancesOf(walletIds))),
    transactionCounts: new DataLoader((walletIds) => services.ledger.transactionCountsOf(walletIds)),
    recentTransactions: new DataLoader(
      (keys) => {
        // one statement per page size; the same wallet twice (two different `after`) goes in another round
        const rounds = new Map<string, number>();
        const roundOf = keys.map((key) => {
          const seen = rounds.get(`${key.walletId}/${key.first}`) ?? 0;
          rounds.set(`${key.walletId}/${key.first}`, seen + 1);
          return seen;
        });
        return inGroups(
          keys,
          (key, index) => `${key.first}/${roundOf[index]}`,
          async (group) => {
            const ids = group.map((key) => key.walletId);
            const rows = await services.ledger.recentOf(ids, group[0].first + 1, group.map((key) => key.beforeSeq));
            return groupByWallet(ids, rows);
          },
        );
      },
      { cacheKeyFn: (key) => `${key.walletId}/${key.first}/${key.beforeSeq}` },
    ),
  };
}

/** Splits a batch into groups that share SQL parameters, runs one call per group, and puts the results back in key order. */
async function inGroups<K, V>(keys: readonly K[], groupOf: (key: K, index: number) => string, load: (group: K[]) => Promise<V[]>): Promise<V[]> {
  const groups = new Map<string, number[]>();
  keys.forEach((key, index) => {
    const name = groupOf(key, index);
    const members = groups.get(name);
    if (members) members.push(index);
    else groups.set(name, [index]);
  });
  const results: V[] = new Array(keys.length);
  await Promise.all(
    [...groups.values()].map(async (indexes) => {
      const values = await load(indexes.map((i) => keys[i]));
      indexes.forEach((keyIndex, i) => (results[keyIndex] = values[i]));
    }),
  );
  return results;
}
