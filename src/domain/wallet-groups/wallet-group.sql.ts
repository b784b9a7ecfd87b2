import { CURRENCY_ORDER, cutOf, PROJECT_CURRENCIES } from '../ledger/ledger.sql.js';
import type { GroupBalanceView, WalletGroupView } from './wallet-group.types.js';

/**
 * The SQL fragments of the group reads, shared by the repository and the SQL plans of GraphQL
 * reads (src/graphql/sql-plan), so both read the same rows and print the same values.
 */

export const GROUP_COLUMNS = `g.id, g.project_id, g.name, g.parent_id, g.metadata, cardinality(g.path) AS depth, g.wallets::text AS wallets, g.seq::text AS seq, g.created_at`;

/**
 * The `held` a group shows in currency row `s`: its stored sum minus the pending holds of its
 * subtree's wallets already past their expires_at and not yet released (as a wallet's
 * effectiveHeld, ledger.sql.ts): such holds stop counting at that instant, before the sweeper's
 * release moves the stored sum. Read only when something is held; the expired holds are few (the
 * sweeper releases them within the minute) and found by their partial index (holds_due_idx).
 */
export const groupHeldSql = (s: string): string => `(${s}.held - CASE WHEN ${s}.held > 0 THEN coalesce((
    SELECT sum(h.amount) FROM holds h
      JOIN wallets hw ON hw.id = h.from_wallet_id
      JOIN wallet_groups hg ON hg.project_id = hw.project_id AND hg.id = hw.group_id
     WHERE h.project_id = ${s}.project_id AND h.asset_id = ${s}.asset_id AND holds_expired(h, now()) AND ${s}.group_id = ANY (hg.path)), 0) ELSE 0 END)`;

/**
 * The stored sums of group row `g` (a FROM clause of `s`, its currency `a` and project `p`): one
 * row per currency a wallet of its subtree holds, found by the primary key. The read costs the
 * same whatever the number of wallets: the sums are running sums (wallet_groups_roll.sql).
 */
export const groupSumsOf = (g: string): string => `wallet_group_balances s
    JOIN assets a ON a.id = s.asset_id
    JOIN projects p ON p.id = s.project_id
   WHERE s.project_id = ${g}.project_id AND s.group_id = ${g}.id AND s.holders > 0`;

export const GROUP_CURRENCY_ORDER = CURRENCY_ORDER;

/** Current roll-ups of the groups `groups` (a FROM item with `project_id`, `id`, aliased `x`), in currency order per group. */
export const groupBalancesSql = (groups: string, x: string): string => `
  SELECT g.id AS group_id, a.id AS asset_id, a.symbol, a.fractions, s.amount::text AS amount, ${groupHeldSql('s')}::text AS held, g.wallets::text AS wallets
    FROM ${groups}
    JOIN wallet_groups g ON g.project_id = ${x}.project_id AND g.id = ${x}.id
    JOIN wallet_group_balances s ON s.project_id = g.project_id AND s.group_id = g.id AND s.holders > 0
    JOIN assets a ON a.id = s.asset_id
    JOIN projects p ON p.id = g.project_id
   ORDER BY g.id, ${GROUP_CURRENCY_ORDER}`;

/**
 * One group's roll-up as of `$3`: the posted balance then (the §14 cut, an index lookup per wallet
 * and currency) of every wallet now in its subtree, summed per currency that one of them had by
 * then. Scans the subtree's wallets: only the current sums are kept running.
 */
export const groupBalancesAsOfSql = `
  SELECT g.id AS group_id, a.id AS asset_id, a.symbol, a.fractions, sum(cut.balance)::text AS amount, NULL AS held, g.wallets::text AS wallets
    FROM wallet_groups g
    JOIN projects p ON p.id = g.project_id
    JOIN wallet_groups d ON d.project_id = g.project_id AND g.id = ANY (d.path)
    JOIN wallets w ON w.project_id = d.project_id AND w.group_id = d.id
    ${PROJECT_CURRENCIES}
    JOIN LATERAL (${cutOf('w.id', 'a.id', '$3::timestamptz')}) cut ON true
   WHERE g.project_id = $1 AND g.id = $2
   GROUP BY g.id, g.wallets, a.id, a.symbol, a.fractions, a.seq, p.asset_id
   ORDER BY ${GROUP_CURRENCY_ORDER}`;

export interface RawGroup {
  id: string;
  project_id: number;
  name: string;
  parent_id: string | null;
  metadata: Record<string, unknown> | null;
  depth: number;
  wallets: string;
  seq: string;
  created_at: Date;
}

export interface RawGroupBalance {
  group_id: string;
  asset_id: string;
  symbol: string;
  fractions: number;
  amount: string;
  held: string | null;
  wallets: string;
}

export function toGroup(r: RawGroup): WalletGroupView {
  return {
    id: r.id,
    projectId: r.project_id,
    name: r.name,
    parentId: r.parent_id,
    metadata: r.metadata,
    depth: r.depth,
    wallets: Number(r.wallets),
    seq: r.seq,
    createdAt: new Date(r.created_at),
  };
}

export function toGroupBalance(r: RawGroupBalance): GroupBalanceView {
  return {
    groupId: r.group_id,
    assetId: r.asset_id,
    symbol: r.symbol,
    fractions: r.fractions,
    amount: BigInt(r.amount),
    held: r.held === null ? null : BigInt(r.held),
    wallets: Number(r.wallets),
  };
}
