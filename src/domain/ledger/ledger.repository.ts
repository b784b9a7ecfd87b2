import type { Database } from '../../db/database.js';
import type { AssetRef, BalanceAsOfRow, BalanceRow, HistoryRow, PostingLeg, PostingRequest, PostingResult, TransactionRow, WalletRef } from './ledger.types.js';
import { EXPIRED_ADDRESS, MINT_ADDRESS } from './ledger.types.js';
import { isUuid } from '../shared/ids.js';
import { olderThan } from '../shared/paging.js';
import { Gatherer } from '../../db/gatherer.js';
import { isStatementCut } from '../shared/error-translation.js';

export interface PostingContext {
  projectId: number;
  asset: AssetRef | null;
  from: WalletRef | null;
  to: WalletRef | null;
}

/** A wallet named by id (`id`, NULL when the reference is no UUID) or by address (`ref`) in project `p`; an id wins. */
const walletOfProject = (alias: string, ref: string, id: string): string => `
  LEFT JOIN LATERAL (
    (SELECT w.id, w.address, w.type, w.status FROM wallets w WHERE w.id = ${id} AND w.project_id = p.id)
    UNION ALL
    (SELECT w.id, w.address, w.type, w.status FROM wallets w WHERE w.project_id = p.id AND w.address = ${ref})
    LIMIT 1) ${alias} ON true`;

/**
 * Many postings' look-ups in one statement (a row per request whose project the caller owns,
 * numbered `n` from 1): the currency and both wallets of each. A wallet reference is an id or an
 * address within the project; an id wins when both match. The project's currencies are its own
 * assets plus a primary asset it shares with another project; its own wins. Each UNION ALL stops
 * at its first row.
 */
const RESOLVE_POSTINGS = `
SELECT r.n::int AS n, p.id AS project_id, a.id AS asset_id, a.symbol, a.fractions,
       f.id AS from_id, f.address AS from_address, f.type AS from_type, f.status AS from_status,
       t.id AS to_id, t.address AS to_address, t.type AS to_type, t.status AS to_status
  FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::uuid[], $6::text[], $7::uuid[])
         WITH ORDINALITY AS r (project_id, owner_id, symbol, from_ref, from_id, to_ref, to_id, n)
  JOIN projects p ON p.id = r.project_id AND p.owner_id = r.owner_id
  LEFT JOIN LATERAL (
    (SELECT a.id, a.symbol, a.fractions FROM assets a WHERE a.project_id = p.id AND a.symbol = r.symbol)
    UNION ALL
    (SELECT a.id, a.symbol, a.fractions FROM assets a WHERE a.id = p.asset_id AND a.symbol = r.symbol)
    LIMIT 1) a ON true
  ${walletOfProject('f', 'r.from_ref', 'r.from_id')}
  ${walletOfProject('t', 'r.to_ref', 'r.to_id')}`;

interface ResolveKey {
  ownerId: string;
  projectId: number;
  symbol: string;
  fromRef: string | null;
  toRef: string;
}

/**
 * Resolving statements at once; more requests than that gather into the next ones. A statement
 * cut by the time-out fails its whole batch: the look-ups only wait together (a table lock, a slow plan).
 */
const RESOLVE_GATHERING = { inFlight: 2, max: 200, splits: (error: unknown) => !isStatementCut(error) };

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

/**
 * The newest `limit` transactions of one wallet (sent and received), older than `beforeSeq`
 * when not null, in one asset when `assetId` is not null — each argument an SQL expression.
 * Both indexes are read newest first and merged, so a wallet's long history is never scanned.
 * Shared by the batched loaders here and by the SQL plans of GraphQL reads.
 */
export const recentOfWallet = (walletId: string, beforeSeq: string, limit: string, assetId = 'NULL::uuid'): string => `
           SELECT u.* FROM (
             (SELECT * FROM transactions t1 WHERE t1.from_wallet_id = ${walletId}
                AND ${olderThan('t1.seq', beforeSeq)} AND (${assetId} IS NULL OR t1.asset_id = ${assetId})
              ORDER BY t1.seq DESC LIMIT ${limit})
             UNION ALL
             (SELECT * FROM transactions t2 WHERE t2.to_wallet_id = ${walletId}
                AND ${olderThan('t2.seq', beforeSeq)} AND (${assetId} IS NULL OR t2.asset_id = ${assetId})
              ORDER BY t2.seq DESC LIMIT ${limit})
           ) u ORDER BY u.seq DESC LIMIT ${limit}`;

/** How many transactions a wallet has sent or received, in every currency: its balance rows keep the count. */
export const transactionCountOf = (walletId: string): string => `(SELECT coalesce(sum(c.tx_count), 0)::bigint FROM balances c WHERE c.wallet_id = ${walletId})`;

/** The running balance, after transaction `t`, of the wallet whose history lists it. */
export const balanceAfter = (walletId: string): string => `CASE WHEN t.from_wallet_id = ${walletId} THEN t.from_balance ELSE t.to_balance END`;

/**
 * The effective `held` of balance row `b`: its stored `held` minus its pending holds already past
 * their expires_at (not yet released by a posting), so a hold stops counting at that very
 * instant. The holds are only read when something is held.
 */
export const effectiveHeld = (b: string): string => `(CASE WHEN ${b}.held > 0 THEN ${b}.held - coalesce((
    SELECT sum(h.amount) FROM holds h
     WHERE h.project_id = ${b}.project_id AND h.from_wallet_id = ${b}.wallet_id AND h.asset_id = ${b}.asset_id
       AND h.status = 'pending' AND h.expires_at <= now()), 0) ELSE 0 END)`;

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
 * (docs/decisions.md). `created_at > '-infinity'` (true of every row) is the as-of indexes' partial
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

export const HISTORY_JOINS = `
  JOIN assets a ON a.id = t.asset_id
  LEFT JOIN wallets wf ON wf.id = t.from_wallet_id
  LEFT JOIN wallets wt ON wt.id = t.to_wallet_id`;

export class LedgerRepository {
  private readonly resolver = new Gatherer<ResolveKey, PostingContext | null>((keys) => this.resolveAll(keys), RESOLVE_GATHERING);

  constructor(private readonly db: Database) {}

  /**
   * The caller's project, the currency and both wallets (null where missing); null when the
   * project is not the caller's. Concurrent calls share statements (Gatherer).
   */
  resolvePosting(ownerId: string, projectId: number, symbol: string, fromRef: string | null, toRef: string): Promise<PostingContext | null> {
    return this.resolver.load({ ownerId, projectId, symbol, fromRef, toRef });
  }

  private async resolveAll(keys: ResolveKey[]): Promise<(PostingContext | null)[]> {
    const rows = await this.db.query<RawResolved>(
      RESOLVE_POSTINGS,
      [
        keys.map((k) => k.projectId),
        keys.map((k) => k.ownerId),
        keys.map((k) => k.symbol),
        keys.map((k) => k.fromRef),
        keys.map((k) => (k.fromRef !== null && isUuid(k.fromRef) ? k.fromRef : null)),
        keys.map((k) => k.toRef),
        keys.map((k) => (isUuid(k.toRef) ? k.toRef : null)),
      ],
      'ledger_resolve_postings',
    );
    const contexts: (PostingContext | null)[] = keys.map(() => null);
    for (const row of rows) contexts[row.n - 1] = toContext(row);
    return contexts;
  }

  /**
   * Posts a batch through `ledger_post` (one statement, one database transaction); a batch that
   * carries webhook calls goes through `webhook_post`, which also stores them in that transaction.
   */
  async post(batch: PostingRequest[]): Promise<PostingResult[]> {
    // Flattened into ledger_post's parallel arrays; a group's legs share a group number.
    const legs: { leg: PostingLeg; group: number | null }[] = [];
    batch.forEach((request, i) => {
      if (request.kind === 'group') for (const leg of request.legs) legs.push({ leg, group: i });
      else legs.push({ leg: request, group: null });
    });
    const params: unknown[] = [
        legs.map(({ leg }) => leg.kind),
        legs.map(({ leg }) => leg.projectId),
        legs.map(({ leg }) => leg.assetId),
        legs.map(({ leg }) => leg.fromWalletId),
        legs.map(({ leg }) => leg.toWalletId),
        legs.map(({ leg }) => (leg.amount === null ? null : leg.amount.toString())),
        legs.map(({ leg }) => leg.requestKey),
        legs.map(({ group }) => group),
        legs.map(({ leg }) => leg.target ?? null),
        legs.map(({ leg }) => leg.reference ?? null),
        legs.map(({ leg }) => (leg.metadata ? JSON.stringify(leg.metadata) : null)),
        legs.map(({ leg }) => leg.expiresIn ?? null),
    ];
    // A webhook flow's stored call goes into the posting's own transaction (webhook_post.sql).
    const calls = legs.map(({ leg }) => (leg.call ? { owner_id: leg.call.ownerId, flow_id: leg.call.flowId, values: leg.call.values, message: leg.call.message } : null));
    const recording = calls.some((call) => call !== null);
    if (recording) params.push(JSON.stringify(calls));
    const arrays = `$1::text[], $2::int[], $3::uuid[], $4::uuid[], $5::uuid[], $6::bigint[], $7::text[], $8::int[], $9::uuid[], $10::text[], $11::json[], $12::int[]`;
    const rows = await this.db.query<RawPosting>(
      recording ? `SELECT ${POSTING_COLUMNS} FROM webhook_post(${arrays}, $13::jsonb)` : `SELECT ${POSTING_COLUMNS} FROM ledger_post(${arrays})`,
      params,
      recording ? 'ledger_webhook_post' : 'ledger_post',
    );
    const byIdx: PostingResult[] = new Array(legs.length);
    for (const row of rows) byIdx[row.idx - 1] = toPostingResult(row);
    const results: PostingResult[] = [];
    let at = 0;
    for (const request of batch) {
      if (request.kind !== 'group') {
        results.push(byIdx[at++]);
        continue;
      }
      const mine = byIdx.slice(at, at + request.legs.length);
      at += request.legs.length;
      // a refused group answers its refused leg's code and detail (with index) on every leg
      results.push(mine[0].code === 'ok' ? { code: 'ok', legs: mine } : { code: mine[0].code, detail: mine[0].detail });
    }
    return results;
  }

  /**
   * Runs `fn` in a database transaction of its own that always rolls back (a dry run): every
   * statement of `fn` — `post` and the reads after it, of any repository — goes to that transaction.
   */
  rolledBack<T>(fn: () => Promise<T>): Promise<T> {
    return this.db.rolledBack(fn);
  }

  /** Every currency of each wallet's project, zero balances included, in asset creation order. */
  async balances(walletIds: readonly string[]): Promise<BalanceRow[]> {
    if (walletIds.length === 0) return [];
    const rows = await this.db.query<{ wallet_id: string; address: string; asset_id: string; symbol: string; fractions: number; amount: string; held: string; tx_count: string }>(
      `SELECT w.id AS wallet_id, w.address, a.id AS asset_id, a.symbol, a.fractions, coalesce(b.amount, 0)::text AS amount,
              coalesce(${effectiveHeld('b')}, 0)::text AS held, coalesce(b.tx_count, 0)::text AS tx_count
         FROM wallets w
         JOIN projects p ON p.id = w.project_id
         ${PROJECT_CURRENCIES}
         LEFT JOIN balances b ON b.wallet_id = w.id AND b.asset_id = a.id
        WHERE w.id = ANY ($1::uuid[])
        ORDER BY w.id, ${CURRENCY_ORDER}`,
      [walletIds],
    );
    return rows.map((r) => ({
      walletId: r.wallet_id,
      address: r.address,
      assetId: r.asset_id,
      symbol: r.symbol,
      fractions: r.fractions,
      amount: BigInt(r.amount),
      held: BigInt(r.held),
      transactionCount: Number(r.tx_count),
    }));
  }

  /**
   * The newest `limit` transactions of each wallet (optionally older than a per-wallet cursor
   * `seq`, optionally in one asset), for any number of wallets in one statement.
   */
  async recent(walletIds: readonly string[], limit: number, beforeSeq: readonly (string | null)[] = [], assetId: string | null = null): Promise<HistoryRow[]> {
    if (walletIds.length === 0) return [];
    const rows = await this.db.query<RawHistory>(
      `SELECT x.wallet_id, ${HISTORY_COLUMNS},
              ${balanceAfter('x.wallet_id')}::text AS balance
         FROM unnest($1::uuid[], $2::bigint[]) AS x(wallet_id, before_seq)
         CROSS JOIN LATERAL (${recentOfWallet('x.wallet_id', 'x.before_seq', '$3', '$4::uuid')}
         ) t
         ${HISTORY_JOINS}
        ORDER BY x.wallet_id, t.seq DESC`,
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
         JOIN projects p ON p.id = t.project_id AND p.owner_id = $2
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

  /** The caller's wallet by id (in `projectId` when given), else by address within `projectId`. */
  async findWallet(ownerId: string, ref: string, refAsId: string | null, projectId: number | null): Promise<{ id: string; projectId: number; createdAt: Date } | null> {
    const [row] = await this.db.query<{ id: string; project_id: number; created_at: Date }>(
      `SELECT id, project_id, created_at FROM wallets
        WHERE owner_id = $1 AND ((id = $2::uuid AND ($3::int IS NULL OR project_id = $3)) OR (project_id = $3 AND address = $4))
        ORDER BY (id = $2::uuid) DESC NULLS LAST LIMIT 1`,
      [ownerId, refAsId, projectId, ref],
    );
    return row ? { id: row.id, projectId: row.project_id, createdAt: row.created_at } : null;
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
    const rows = await this.db.query<{ wallet_id: string; address: string; asset_id: string; symbol: string; fractions: number; amount: string; tx_count: string; cut_seq: string | null }>(
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
    return rows.map((r) => ({
      walletId: r.wallet_id,
      address: r.address,
      assetId: r.asset_id,
      symbol: r.symbol,
      fractions: r.fractions,
      amount: BigInt(r.amount),
      transactionCount: Number(r.tx_count),
      cutSeq: r.cut_seq,
    }));
  }

  /** `recent` as of a time: each wallet's newest `limit` transactions at or before `asOf` (optionally older than a per-wallet cursor), one statement. */
  async recentAsOf(walletIds: readonly string[], limit: number, asOf: Date, beforeSeq: readonly (string | null)[] = []): Promise<HistoryRow[]> {
    if (walletIds.length === 0) return [];
    const rows = await this.db.query<RawHistory>(
      `SELECT x.wallet_id, ${HISTORY_COLUMNS},
              ${balanceAfter('x.wallet_id')}::text AS balance
         FROM unnest($1::uuid[], $2::bigint[]) AS x(wallet_id, before_seq)
         CROSS JOIN LATERAL (${cutsOfWallet('x.wallet_id', '$4::timestamptz')}) c
         CROSS JOIN LATERAL (${recentOfWalletAsOf('x.wallet_id', 'x.before_seq', '$3', 'c')}
         ) t
         ${HISTORY_JOINS}
        ORDER BY x.wallet_id, t.seq DESC`,
      [walletIds, walletIds.map((_, i) => beforeSeq[i] ?? null), limit, asOf],
    );
    return rows.map(toHistory);
  }

  async ownsProject(ownerId: string, projectId: number): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM projects WHERE id = $1 AND owner_id = $2`, [projectId, ownerId]);
    return rows.length > 0;
  }

  async primaryAssetId(projectId: number): Promise<string | null> {
    const [row] = await this.db.query<{ asset_id: string | null }>(`SELECT asset_id FROM projects WHERE id = $1`, [projectId]);
    return row?.asset_id ?? null;
  }

  async balanceOf(walletId: string, assetId: string): Promise<bigint> {
    const [row] = await this.db.query<{ amount: string }>(`SELECT amount::text FROM balances WHERE wallet_id = $1 AND asset_id = $2`, [walletId, assetId]);
    return row ? BigInt(row.amount) : 0n;
  }
}

interface RawResolved {
  n: number;
  project_id: number;
  asset_id: string | null;
  symbol: string;
  fractions: number;
  from_id: string | null;
  from_address: string;
  from_type: WalletRef['type'];
  from_status: WalletRef['status'];
  to_id: string | null;
  to_address: string;
  to_type: WalletRef['type'];
  to_status: WalletRef['status'];
}

function toContext(row: RawResolved): PostingContext {
  return {
    projectId: row.project_id,
    asset: row.asset_id === null ? null : { id: row.asset_id, symbol: row.symbol, fractions: row.fractions },
    from: row.from_id === null ? null : { id: row.from_id, address: row.from_address, type: row.from_type, status: row.from_status },
    to: row.to_id === null ? null : { id: row.to_id, address: row.to_address, type: row.to_type, status: row.to_status },
  };
}

/** Named, not `*`: the statement is prepared per connection, and its result shape must not follow a later routine change. */
const POSTING_COLUMNS = 'idx, code, tx_id, tx_seq, from_balance, to_balance, posted_at, hold_id, detail';

interface RawPosting {
  idx: number;
  code: PostingResult['code'];
  tx_id: string | null;
  tx_seq: string | null;
  from_balance: string | null;
  to_balance: string | null;
  posted_at: Date | null;
  hold_id: string | null;
  detail: Record<string, unknown> | null;
}

function toPostingResult(row: RawPosting): PostingResult {
  return {
    code: row.code,
    id: row.tx_id ?? undefined,
    seq: row.tx_seq ?? undefined,
    fromBalance: row.from_balance === null ? undefined : BigInt(row.from_balance),
    toBalance: row.to_balance === null ? undefined : BigInt(row.to_balance),
    postedAt: row.posted_at ?? undefined,
    holdId: row.hold_id ?? undefined,
    detail: row.detail ?? undefined,
  };
}

export interface RawHistory {
  wallet_id: string;
  id: string;
  seq: string;
  project_id: number;
  asset_id: string;
  symbol: string;
  fractions: number;
  amount: string;
  from_wallet_id: string | null;
  to_wallet_id: string | null;
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
    id: r.id,
    seq: r.seq,
    projectId: r.project_id,
    assetId: r.asset_id,
    symbol: r.symbol,
    fractions: r.fractions,
    amount: BigInt(r.amount),
    fromWalletId: r.from_wallet_id,
    toWalletId: r.to_wallet_id,
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
