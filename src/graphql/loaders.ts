import type { HoldView } from '../domain/holds/hold.types.js';
import DataLoader from 'dataloader';
import type { Principal } from '../domain/auth/api-key.service.js';
import type { AssetView } from '../domain/assets/asset.types.js';
import type { LotRow } from '../domain/lots/lot.types.js';
import type { LimitUsageView } from '../domain/limits/limit.types.js';
import type { AsOfWallet } from '../domain/ledger/as-of.rules.js';
import { groupByWallet, type BalanceAsOfRow, type BalanceRow, type HistoryRow, type TransactionRow } from '../domain/ledger/ledger.types.js';
import type { ProjectView } from '../domain/projects/project.types.js';
import type { WalletSlice, WalletType, WalletView } from '../domain/wallets/wallet.types.js';
import type { GroupBalanceView, WalletGroupView } from '../domain/wallet-groups/wallet-group.types.js';
import type { Services } from '../services.js';

/** A wallet's page of recent transactions: `first` rows (plus one, to tell a next page) older than `beforeSeq`. */
export interface RecentKey {
  walletId: string;
  first: number;
  beforeSeq: string | null;
}

/** The first `first` live lots of one balance (Balance.expiring). */
export interface ExpiringKey {
  walletId: string;
  assetId: string;
  first: number;
}

/** A wallet read as of a time (CONTRACT §14); `wallet` carries its birth, which the service checks `asOf` against. */
export interface AsOfKey {
  wallet: AsOfWallet;
  asOf: Date;
}

export type RecentAsOfKey = AsOfKey & Omit<RecentKey, 'walletId'>;

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
  expiringLots: DataLoader<ExpiringKey, LotRow[], string>;
  balancesAsOf: DataLoader<AsOfKey, BalanceAsOfRow[], string>;
  recentTransactionsAsOf: DataLoader<RecentAsOfKey, HistoryRow[], string>;
  /** Wallet.limits (CONTRACT §19): the limits that apply to each wallet, with used and remaining. */
  limitUsage: DataLoader<string, LimitUsageView[]>;
  /** Wallet groups (CONTRACT §29): by id, their current roll-ups, their direct subgroups. */
  walletGroup: DataLoader<string, WalletGroupView | null>;
  groupBalances: DataLoader<GroupKey, GroupBalanceView[], string>;
  subgroups: DataLoader<GroupKey, WalletGroupView[], string>;
}

/** A group already read by its owner: its project and id. */
interface GroupKey {
  projectId: number;
  id: string;
}

export function createLoaders(principal: Principal, services: Services): Loaders {
  const { ownerId } = principal;
  return {
    project: new DataLoader((ids) => services.projects.getMany(ownerId, ids)),
    asset: new DataLoader((ids) => services.assets.getMany(ownerId, ids)),
    wallet: new DataLoader((ids) => services.wallets.getMany(ownerId, ids)),
    transaction: new DataLoader((ids) => services.history.transactionsByIds(principal, ids)),
    hold: new DataLoader((ids) => services.holds.getMany(ownerId, ids)),
    limitUsage: new DataLoader((walletIds) => services.limits.usageOf(walletIds)),
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
    balances: new DataLoader(async (walletIds) => groupByWallet(walletIds, await services.history.balancesOf(walletIds))),
    transactionCounts: new DataLoader((walletIds) => services.history.transactionCountsOf(walletIds)),
    walletGroup: new DataLoader((ids) => services.walletGroups.getMany(ownerId, ids)),
    groupBalances: new DataLoader<GroupKey, GroupBalanceView[], string>(
      async (groups) => {
        const rows = await services.walletGroups.balancesOf(groups);
        return rowsPerKey(groups.map((group) => group.id), rows, (row) => row.groupId);
      },
      { cacheKeyFn: (group) => group.id },
    ),
    subgroups: new DataLoader<GroupKey, WalletGroupView[], string>(
      async (groups) => {
        const rows = await services.walletGroups.subgroupsOf(groups);
        return rowsPerKey(groups.map((group) => group.id), rows, (row) => row.parentId);
      },
      { cacheKeyFn: (group) => group.id },
    ),
    expiringLots: new DataLoader(
      (keys) => inGroups(keys, (key) => String(key.first), (group) => services.lots.expiringOf(group, group[0].first)),
      { cacheKeyFn: (key) => `${key.walletId}/${key.assetId}/${key.first}` },
    ),
    // as of a time: one statement per instant (and page size); a wallet that cannot be read then gets its own error
    balancesAsOf: new DataLoader<AsOfKey, BalanceAsOfRow[], string>(
      (keys) =>
        inGroups(
          keys,
          (key) => String(key.asOf.getTime()),
          (group) => services.history.balancesAsOf(group.map((key) => key.wallet), group[0].asOf),
        ),
      { cacheKeyFn: (key) => `${key.wallet.id}/${key.asOf.getTime()}` },
    ),
    recentTransactionsAsOf: new DataLoader<RecentAsOfKey, HistoryRow[], string>(
      (keys) => {
        const roundOf = roundsOf(keys.map((key) => `${key.wallet.id}/${key.first}/${key.asOf.getTime()}`));
        return inGroups(
          keys,
          (key, index) => `${key.first}/${key.asOf.getTime()}/${roundOf[index]}`,
          (group) => services.history.recentAsOf(group.map((key) => key.wallet), group[0].first + 1, group[0].asOf, group.map((key) => key.beforeSeq)),
        );
      },
      { cacheKeyFn: (key) => `${key.wallet.id}/${key.first}/${key.beforeSeq}/${key.asOf.getTime()}` },
    ),
    recentTransactions: new DataLoader(
      (keys) => {
        // one statement per page size; the same wallet twice (two different `after`) goes in another round
        const roundOf = roundsOf(keys.map((key) => `${key.walletId}/${key.first}`));
        return inGroups(
          keys,
          (key, index) => `${key.first}/${roundOf[index]}`,
          async (group) => {
            const ids = group.map((key) => key.walletId);
            const rows = await services.history.recentOf(ids, group[0].first + 1, group.map((key) => key.beforeSeq));
            return groupByWallet(ids, rows);
          },
        );
      },
      { cacheKeyFn: (key) => `${key.walletId}/${key.first}/${key.beforeSeq}` },
    ),
  };
}

/** `rows` under each of `keys`, in the keys' order ([] for a key without rows). */
function rowsPerKey<T>(keys: readonly string[], rows: readonly T[], keyOf: (row: T) => string | null): T[][] {
  const byKey = new Map<string | null, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const list = byKey.get(key);
    if (list) list.push(row);
    else byKey.set(key, [row]);
  }
  return keys.map((key) => byKey.get(key) ?? []);
}

/** For each key, how many keys with the same name came before it: the same wallet twice (two `after`) goes in another round. */
function roundsOf(names: readonly string[]): number[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const round = seen.get(name) ?? 0;
    seen.set(name, round + 1);
    return round;
  });
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
