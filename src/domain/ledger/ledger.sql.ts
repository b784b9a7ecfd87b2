import type { HistoryRow, Movement } from './ledger.types.js';
import { EXPIRED_ADDRESS, MINT_ADDRESS } from './ledger.types.js';
import { olderThan } from '../shared/paging.js';

/**
 * The SQL fragments of the ledger's reads that more than one statement shares: the history
 * repository's, the journal's and the search's, and the SQL plans of GraphQL reads
 * (src/graphql/sql-plan), so that every path reads the same rows and prints the same values.
 * Each fragment is text with its inputs given as SQL expressions; none runs on its own.
 */

/**
 * The receiver's address of transaction `t`, given the SQL of its wallet's address (NULL when it
 * has no receiving wallet): an expiry goes to @expired (CONTRACT §15), a seed's reversal back to @mint.
 */
export const receiverAddress = (walletAddress: string): string =>
  `CASE WHEN t.kind = 'expiry' THEN '${EXPIRED_ADDRESS}' ELSE coalesce(${walletAddress}, '${MINT_ADDRESS}') END`;

export const HISTORY_COLUMNS = `
  t.id, t.seq::text AS seq, t.project_id, t.asset_id, a.symbol, a.fractions, t.amount::text AS amount,
  t.from_wallet_id, t.to_wallet_id, coalesce(wf.address, '${MINT_ADDRESS}') AS from_address, ${receiverAddress('wt.address')} AS to_address,
  t.created_at, t.reverses, t.reversed_amount::text AS reversed_amount, t.reference, t.metadata`;

export const HISTORY_JOINS = `
  JOIN assets a ON a.id = t.asset_id
  LEFT JOIN wallets wf ON wf.id = t.from_wallet_id
  LEFT JOIN wallets wt ON wt.id = t.to_wallet_id`;

/**
 * The newest `limit` transactions of one wallet (sent and received), older than `beforeSeq`
 * when not null, in one asset when `assetId` is not null — each argument an SQL expression.
 * Both indexes are read newest first and merged, so a wallet's long history is never scanned.
 * Shared by the batched history reads and by the SQL plans of GraphQL reads.
 *
 * Each side's LIMIT is a sub-select on purpose: PostgreSQL estimates a wallet's rows as the
 * average wallet's (a few), and with a known LIMIT above that it prefers a bitmap scan and a
 * sort, which reads every row of a busy wallet (a system wallet's thousands of sends) to keep
 * the newest few. A LIMIT it cannot know before running makes it plan for a fraction of the
 * rows: the ordered index scan that stops after `limit` (bench/results/2026-11-27-reads-2.txt).
 */
export const recentOfWallet = (walletId: string, beforeSeq: string, limit: string, assetId = 'NULL::uuid'): string => `
           SELECT u.* FROM (
             (SELECT * FROM transactions t1 WHERE t1.from_wallet_id = ${walletId}
                AND ${olderThan('t1.seq', beforeSeq)} AND (${assetId} IS NULL OR t1.asset_id = ${assetId})
              ORDER BY t1.seq DESC LIMIT (SELECT (${limit})::bigint))
             UNION ALL
             (SELECT * FROM transactions t2 WHERE t2.to_wallet_id = ${walletId}
                AND ${olderThan('t2.seq', beforeSeq)} AND (${assetId} IS NULL OR t2.asset_id = ${assetId})
              ORDER BY t2.seq DESC LIMIT (SELECT (${limit})::bigint))
           ) u ORDER BY u.seq DESC LIMIT ${limit}`;

/** How many transactions a wallet has sent or received, in every currency: its balance rows keep the count. */
export const transactionCountOf = (walletId: string): string => `(SELECT coalesce(sum(c.tx_count), 0)::bigint FROM balances c WHERE c.wallet_id = ${walletId})`;

/** The running balance, after transaction `t`, of the wallet whose history lists it. */
export const balanceAfter = (walletId: string): string => `CASE WHEN t.from_wallet_id = ${walletId} THEN t.from_balance ELSE t.to_balance END`;

/**
 * The effective `held` of balance row `b`: its stored `held` minus its pending holds already past
 * their expires_at (not yet released by a posting; holds_expired.sql), so a hold stops counting at
 * that very instant. The holds are only read when something is held.
 */
export const effectiveHeld = (b: string): string => `(CASE WHEN ${b}.held > 0 THEN ${b}.held - coalesce((
    SELECT sum(h.amount) FROM holds h
     WHERE h.project_id = ${b}.project_id AND h.from_wallet_id = ${b}.wallet_id AND h.asset_id = ${b}.asset_id
       AND holds_expired(h, now())), 0) ELSE 0 END)`;

/**
 * `incoming` of a balance entry (CONTRACT §26): the sum of the pending, unexpired holds *to* the
 * wallet in the asset (NULL when none), one index-only descent of holds_incoming_idx; written
 * once here for every reader (REST balances, GraphQL plans). Read side only: no posting pays for it.
 */
export const pendingIncoming = (project: string, wallet: string, asset: string): string => `(
    SELECT sum(h.amount) FROM holds h
     WHERE h.project_id = ${project} AND h.to_wallet_id = ${wallet} AND h.asset_id = ${asset} AND h.status = 'pending'
       AND NOT holds_expired(h, now()))`;

/** The currencies (`a`) of project `p`: its own assets and a primary asset it shares; primary first, then creation order. */
export const PROJECT_CURRENCIES = `JOIN assets a ON a.project_id = p.id OR a.id = p.asset_id`;
export const CURRENCY_ORDER = `(a.id = p.asset_id) DESC, a.seq`;

/**
 * The currencies of the project `projectId` (an SQL expression) as one row of parallel arrays in
 * currency order: `ids`, `symbols`, `fractions`. As a LATERAL join on many wallets of one
 * project, PostgreSQL computes it once per project (Memoize) instead of once per wallet.
 */
export const projectCurrencies = (projectId: string): string => `
  SELECT array_agg(a.id ORDER BY ${CURRENCY_ORDER}) AS ids, array_agg(a.symbol ORDER BY ${CURRENCY_ORDER}) AS symbols,
         array_agg(a.fractions ORDER BY ${CURRENCY_ORDER}) AS fractions
    FROM projects p ${PROJECT_CURRENCIES} WHERE p.id = ${projectId}`;

/**
 * The as-of cut of one wallet in one asset (CONTRACT §14): its last transaction dated at or
 * before `asOf` — the greatest (date, seq) — as `seq`, with the wallet's running balance
 * (`balance`) and running count (`n`) after it; no row when it has none. One descent of each
 * as-of index (sent side, received side) whatever the history's length: the rows that share the
 * wallet's lock are dated in `seq` order, so this is also the greatest `seq` dated at or before
 * `asOf`, and the history as of `asOf` is exactly the wallet's rows in that asset up to `seq`
 * (docs/decisions/as-of-reads.md). `created_at > '-infinity'` (true of every row) is the as-of indexes' partial
 * predicate: only this lookup states it, so only this lookup can use them (migration 20261123123000).
 * Each argument an SQL expression.
 */
export const cutOf = (walletId: string, assetId: string, asOf: string): string => `
           SELECT c.seq, c.balance, c.n FROM (
             (SELECT t1.created_at, t1.seq, t1.from_balance AS balance, t1.from_count AS n FROM transactions t1
               WHERE t1.from_wallet_id = ${walletId} AND t1.asset_id = ${assetId} AND t1.created_at <= ${asOf} AND t1.created_at > '-infinity'
               ORDER BY t1.created_at DESC, t1.seq DESC LIMIT 1)
             UNION ALL
             (SELECT t2.created_at, t2.seq, t2.to_balance AS balance, t2.to_count AS n FROM transactions t2
               WHERE t2.to_wallet_id = ${walletId} AND t2.asset_id = ${assetId} AND t2.created_at <= ${asOf} AND t2.created_at > '-infinity'
               ORDER BY t2.created_at DESC, t2.seq DESC LIMIT 1)
           ) c ORDER BY c.created_at DESC, c.seq DESC LIMIT 1`;

/** The columns every movement of money reads alike (a transaction, a hold): as selected, and as the rows carry them. */
export interface RawMovement<W = string | null> {
  id: string;
  seq: string;
  project_id: number;
  asset_id: string;
  symbol: string;
  fractions: number;
  amount: string;
  from_wallet_id: W;
  to_wallet_id: W;
}

export function toMovement<W>(r: RawMovement<W>): Movement<W> {
  return {
    id: r.id,
    seq: r.seq,
    projectId: r.project_id,
    assetId: r.asset_id,
    symbol: r.symbol,
    fractions: r.fractions,
    amount: BigInt(r.amount),
    fromWalletId: r.from_wallet_id,
    toWalletId: r.to_wallet_id,
  };
}

/** A row of HISTORY_COLUMNS with the wallet whose history lists it and that wallet's balance after it. */
export interface RawHistory extends RawMovement {
  wallet_id: string;
  from_address: string;
  to_address: string;
  balance: string;
  created_at: Date;
  reverses: string | null;
  reversed_amount: string;
  reference: string | null;
  metadata: Record<string, unknown> | null;
}

export function toHistory(r: RawHistory): HistoryRow {
  return {
    walletId: r.wallet_id,
    ...toMovement(r),
    fromAddress: r.from_address,
    toAddress: r.to_address,
    balance: BigInt(r.balance),
    date: r.created_at,
    reverses: r.reverses,
    reversedAmount: BigInt(r.reversed_amount),
    reference: r.reference,
    metadata: r.metadata ?? {},
  };
}
