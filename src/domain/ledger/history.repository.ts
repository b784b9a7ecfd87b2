import type { Database } from '../../db/database.js';
import type { BalanceAsOfRow, BalanceRow, HistoryRow, TransactionRow } from './ledger.types.js';
import { isUuid } from '../shared/ids.js';
import { olderThan } from '../shared/paging.js';
import { ownedBy } from '../ownership/ownership.sql.js';
import { balanceAfter, CURRENCY_ORDER, cutOf, effectiveHeld, pendingIncoming, HISTORY_COLUMNS, HISTORY_JOINS, PROJECT_CURRENCIES, recentOfWallet, toHistory, transactionCountOf, type RawHistory } from './ledger.sql.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

/** One row: the cuts of a wallet in every currency of its project, as `assets` / `seqs` arrays and their greatest `last` (NULL: nothing yet). */
const cutsOfWallet = (walletId: string, asOf: string): string => `
           SELECT array_agg(a.id) AS assets, array_agg(cut.seq) AS seqs, max(cut.seq) AS last
             FROM wallets w JOIN projects p ON p.id = w.project_id ${PROJECT_CURRENCIES}
             LEFT JOIN LATERAL (${cutOf('w.id', 'a.id', asOf)}) cut ON true
            WHERE w.id = ${walletId}`;

/**
 * `recentOfWallet` as of a time: the newest `limit` transactions of a wallet in every currency,
 * each currency's up to its cut (`cuts`: the alias of a `cutsOfWallet` row). The seq indexes are
 * entered at the greatest cut, so the rows after `asOf` are never read; only a row of one
 * currency dated after `asOf` but posted before another currency's cut is passed over.
 */
const recentOfWalletAsOf = (walletId: string, beforeSeq: string, limit: string, cuts: string): string => `
           SELECT u.* FROM (
             (SELECT * FROM transactions t1 WHERE t1.from_wallet_id = ${walletId} AND t1.seq <= ${cuts}.last
                AND ${olderThan('t1.seq', beforeSeq)} AND t1.seq <= ${cuts}.seqs[array_position(${cuts}.assets, t1.asset_id)]
              ORDER BY t1.seq DESC LIMIT ${limit})
             UNION ALL
             (SELECT * FROM transactions t2 WHERE t2.to_wallet_id = ${walletId} AND t2.seq <= ${cuts}.last
                AND ${olderThan('t2.seq', beforeSeq)} AND t2.seq <= ${cuts}.seqs[array_position(${cuts}.assets, t2.asset_id)]
              ORDER BY t2.seq DESC LIMIT ${limit})
           ) u ORDER BY u.seq DESC LIMIT ${limit}`;

/**
 * Rows `t` of many wallets (`x.wallet_id`, with a cursor `x.before_seq`: $1 and $2) with each
 * wallet's balance after each row, newest first per wallet; `rows` are the LATERAL joins that
 * yield a wallet's `t`.
 */
const ofEachWallet = (rows: string): string => `SELECT x.wallet_id, ${HISTORY_COLUMNS},
              ${balanceAfter('x.wallet_id')}::text AS balance
         FROM unnest($1::uuid[], $2::bigint[]) AS x(wallet_id, before_seq)
         ${rows}
         ${HISTORY_JOINS}
        ORDER BY x.wallet_id, t.seq DESC`;

/** The columns a balance row shares with a balance as of a time. */
interface RawBalance {
  wallet_id: string;
  address: string;
  asset_id: string;
  symbol: string;
  fractions: number;
  amount: string;
  tx_count: string;
}

const toBalance = (r: RawBalance): Omit<BalanceRow, 'held' | 'creditLimit' | 'incoming' | 'transactionCount'> => ({
  walletId: r.wallet_id,
  address: r.address,
  assetId: r.asset_id,
  symbol: r.symbol,
  fractions: r.fractions,
  amount: BigInt(r.amount),
});

/** The reads of wallets' balances and histories (now, and as of a time) and of transactions by id. Callers have checked tenancy unless a method takes the owner. */
export class HistoryRepository {
  constructor(private readonly db: Database) {}

  /** Every currency of each wallet's project, zero balances included, in asset creation order. */
  async balances(walletIds: readonly string[]): Promise<BalanceRow[]> {
    if (walletIds.length === 0) return [];
    const rows = await this.db.query<RawBalance & { held: string; credit_limit: string; incoming: string }>(
      `SELECT w.id AS wallet_id, w.address, a.id AS asset_id, a.symbol, a.fractions, coalesce(b.amount, 0)::text AS amount,
              coalesce(${effectiveHeld('b')}, 0)::text AS held, coalesce(${pendingIncoming('w.project_id', 'w.id', 'a.id')}, 0)::text AS incoming,
              coalesce(b.tx_count, 0)::text AS tx_count,
              coalesce(b.credit_limit, 0)::text AS credit_limit
         FROM wallets w
         JOIN projects p ON p.id = w.project_id
         ${PROJECT_CURRENCIES}
         LEFT JOIN balances b ON b.wallet_id = w.id AND b.asset_id = a.id
        WHERE w.id = ANY ($1::uuid[])
        ORDER BY w.id, ${CURRENCY_ORDER}`,
      [walletIds],
    );
    return rows.map((r) => ({ ...toBalance(r), held: BigInt(r.held), creditLimit: BigInt(r.credit_limit), incoming: BigInt(r.incoming), transactionCount: Number(r.tx_count) }));
  }

  /**
   * The newest `limit` transactions of each wallet (optionally older than a per-wallet cursor
   * `seq`, optionally in one asset), for any number of wallets in one statement.
   */
  async recent(walletIds: readonly string[], limit: number, beforeSeq: readonly (string | null)[] = [], assetId: string | null = null): Promise<HistoryRow[]> {
    if (walletIds.length === 0) return [];
    const rows = await this.db.query<RawHistory>(
      ofEachWallet(`CROSS JOIN LATERAL (${recentOfWallet('x.wallet_id', 'x.before_seq', '$3', '$4::uuid')}
         ) t`),
      [walletIds, walletIds.map((_, i) => beforeSeq[i] ?? null), limit, assetId],
    );
    return rows.map(toHistory);
  }

  /**
   * One page of a wallet's history in one asset, newest first (the total is the balance row's
   * `transactionCount`); of the rows before `beforeSeq` when given (a history as of a time).
   */
  async page(walletId: string, assetId: string, limit: number, offset: number, beforeSeq: string | null = null): Promise<HistoryRow[]> {
    const rows = await this.db.query<RawHistory>(
      `SELECT $1::uuid AS wallet_id, ${HISTORY_COLUMNS}, ${balanceAfter('$1::uuid')}::text AS balance
         FROM (${recentOfWallet('$1::uuid', '$5::bigint', '($3::bigint + $4::bigint)', '$2::uuid')}
         ) t
         ${HISTORY_JOINS}
        ORDER BY t.seq DESC LIMIT $3::bigint OFFSET $4::bigint`,
      [walletId, assetId, limit, offset, beforeSeq],
    );
    return rows.map(toHistory);
  }

  /**
   * The wallet's transaction in one asset carrying `reference` (references are unique per
   * project, so none or one): found through ledger_references' primary key.
   */
  async byReference(walletId: string, assetId: string, projectId: number, reference: string): Promise<HistoryRow[]> {
    const rows = await this.db.query<RawHistory>(
      `SELECT $1::uuid AS wallet_id, ${HISTORY_COLUMNS}, ${balanceAfter('$1::uuid')}::text AS balance
         FROM ledger_references r
         JOIN transactions t ON t.id = r.id
         ${HISTORY_JOINS}
        WHERE r.project_id = $3 AND r.reference = $4 AND t.asset_id = $2 AND $1::uuid IN (t.from_wallet_id, t.to_wallet_id)`,
      [walletId, assetId, projectId, reference],
    );
    return rows.map(toHistory);
  }

  /** The owner's transactions among `ids`, in one statement; unknown, foreign and malformed ids are simply absent. */
  async byIds(ownerId: string, ids: readonly string[]): Promise<TransactionRow[]> {
    const wanted = ids.filter(isUuid);
    if (wanted.length === 0) return [];
    const rows = await this.db.query<RawHistory>(
      `SELECT t.to_wallet_id AS wallet_id, ${HISTORY_COLUMNS}, coalesce(t.to_balance, t.from_balance)::text AS balance
         FROM transactions t
         JOIN projects p ON p.id = t.project_id AND ${ownedBy('p', '$2')}
         ${HISTORY_JOINS}
        WHERE t.id = ANY ($1::uuid[])`,
      [wanted, ownerId],
    );
    return rows.map(toHistory).map(({ walletId: _wallet, balance: _balance, ...row }) => row);
  }

  /**
   * Transactions by id as `POST /transactions` answers them: from the sender's side (its balance
   * right after), the receiver's for a seed, which has no sending wallet. Any owner: for the
   * events of CONTRACT §16, whose readers were checked against the project.
   */
  async asPostedByIds(ids: readonly string[]): Promise<HistoryRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<RawHistory>(
      `SELECT coalesce(t.from_wallet_id, t.to_wallet_id) AS wallet_id, ${HISTORY_COLUMNS}, coalesce(t.from_balance, t.to_balance)::text AS balance
         FROM transactions t
         ${HISTORY_JOINS}
        WHERE t.id = ANY ($1::uuid[])`,
      [ids],
    );
    return rows.map(toHistory);
  }

  /** Transactions of each wallet (sent and received, every currency), aligned with `walletIds`. */
  async transactionCounts(walletIds: readonly string[]): Promise<number[]> {
    if (walletIds.length === 0) return [];
    const rows = await this.db.query<{ n: string }>(
      `SELECT ${transactionCountOf('x.id')}::text AS n FROM unnest($1::uuid[]) WITH ORDINALITY AS x(id, ord) ORDER BY x.ord`,
      [walletIds],
    );
    return rows.map((r) => Number(r.n));
  }

  /**
   * Every currency of each wallet's project (in one currency when `assetId` is given), zero
   * included, as it was at `asOf`: the running balance and count after each cut. One statement,
   * two index descents per wallet and currency.
   */
  async balancesAsOf(walletIds: readonly string[], asOf: Date, assetId: string | null = null): Promise<BalanceAsOfRow[]> {
    if (walletIds.length === 0) return [];
    const rows = await this.db.query<RawBalance & { cut_seq: string | null }>(
      `SELECT w.id AS wallet_id, w.address, a.id AS asset_id, a.symbol, a.fractions, coalesce(cut.balance, 0)::text AS amount,
              coalesce(cut.n, 0)::text AS tx_count, cut.seq::text AS cut_seq
         FROM wallets w
         JOIN projects p ON p.id = w.project_id
         ${PROJECT_CURRENCIES}
         LEFT JOIN LATERAL (${cutOf('w.id', 'a.id', '$2::timestamptz')}) cut ON true
        WHERE w.id = ANY ($1::uuid[]) AND ($3::uuid IS NULL OR a.id = $3::uuid)
        ORDER BY w.id, ${CURRENCY_ORDER}`,
      [walletIds, asOf, assetId],
    );
    return rows.map((r) => ({ ...toBalance(r), transactionCount: Number(r.tx_count), cutSeq: r.cut_seq }));
  }

  /** `recent` as of a time: each wallet's newest `limit` transactions at or before `asOf` (optionally older than a per-wallet cursor), one statement. */
  async recentAsOf(walletIds: readonly string[], limit: number, asOf: Date, beforeSeq: readonly (string | null)[] = []): Promise<HistoryRow[]> {
    if (walletIds.length === 0) return [];
    const rows = await this.db.query<RawHistory>(
      ofEachWallet(`CROSS JOIN LATERAL (${cutsOfWallet('x.wallet_id', '$4::timestamptz')}) c
         CROSS JOIN LATERAL (${recentOfWalletAsOf('x.wallet_id', 'x.before_seq', '$3', 'c')}
         ) t`),
      [walletIds, walletIds.map((_, i) => beforeSeq[i] ?? null), limit, asOf],
    );
    return rows.map(toHistory);
  }

  async primaryAssetId(projectId: number): Promise<string | null> {
    const [row] = await this.db.query<{ asset_id: string | null }>(`SELECT asset_id FROM projects WHERE id = $1`, [projectId]);
    return row?.asset_id ?? null;
  }
}

/** Sample calls: src/queries/history.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new HistoryRepository(db),
  calls: {
    balances: (r) => r.balances([SAMPLE.id]),
    recent: (r) => r.recent([SAMPLE.id], 20),
    page: (r) => r.page(SAMPLE.id, SAMPLE.id, 20, 0),
    byReference: (r) => r.byReference(SAMPLE.id, SAMPLE.id, SAMPLE.projectId, 'ref'),
    byIds: (r) => r.byIds(SAMPLE.owner, [SAMPLE.id]),
    asPostedByIds: (r) => r.asPostedByIds([SAMPLE.id]),
    transactionCounts: (r) => r.transactionCounts([SAMPLE.id]),
    balancesAsOf: (r) => r.balancesAsOf([SAMPLE.id], SAMPLE.at),
    recentAsOf: (r) => r.recentAsOf([SAMPLE.id], 20, SAMPLE.at),
    primaryAssetId: (r) => r.primaryAssetId(SAMPLE.projectId),
  },
});
