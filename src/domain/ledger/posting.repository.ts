import type { Database } from '../../db/database.js';
import type { AssetRef, PostingCondition, PostingLeg, PostingRequest, PostingResult, WalletRef } from './ledger.types.js';
import { isUuid } from '../shared/ids.js';
import { Gatherer } from '../../db/gatherer.js';
import { isStatementCut } from '../shared/error-translation.js';
import { ownedBy } from '../ownership/ownership.sql.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

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
  JOIN projects p ON p.id = r.project_id AND ${ownedBy('p', 'r.owner_id')}
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

/** The posting path's statements: resolving what a request names, and posting batches (one statement each). */
export class PostingRepository {
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
    // Conditions (§28) only when some request carries them: a batch without any sends the statement it always did.
    const conditioned = !recording && legs.some(({ leg }) => leg.conditions?.length);
    if (conditioned) params.push(legs.map(({ leg }) => (leg.conditions?.length ? JSON.stringify(leg.conditions.map(conditionJson)) : null)));
    const arrays = `$1::text[], $2::int[], $3::uuid[], $4::uuid[], $5::uuid[], $6::bigint[], $7::text[], $8::int[], $9::uuid[], $10::text[], $11::json[], $12::int[]`;
    // maturing holds (CONTRACT §26) only: every other batch sends the statement it always sent
    const maturing = legs.some(({ leg }) => leg.matureIn !== undefined || leg.matureAt !== undefined);
    let maturity = '';
    if (maturing) {
      const at = params.length + 1;
      params.push(legs.map(({ leg }) => leg.matureIn ?? null), legs.map(({ leg }) => leg.matureAt?.toISOString() ?? null));
      // by name for ledger_post, whose p_conditions comes first; webhook_post takes them after its calls
      maturity = recording ? `, $${at}::int[], $${at + 1}::timestamptz[]` : `, p_mature_in => $${at}::int[], p_mature_at => $${at + 1}::timestamptz[]`;
    }
    const rows = await this.db.query<RawPosting>(
      recording
        ? `SELECT ${POSTING_COLUMNS} FROM webhook_post(${arrays}, $13::jsonb${maturity})`
        : `SELECT ${POSTING_COLUMNS} FROM ledger_post(${arrays}${conditioned ? ', p_conditions => $13::jsonb[]' : ''}${maturity})`,
      params,
      `${recording ? 'ledger_webhook_post' : conditioned ? 'ledger_post_conditioned' : 'ledger_post'}${maturing ? '_maturing' : ''}`,
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

/** A condition as ledger_conditions.sql reads it: minor units as text (jsonb numbers would pass through a double). */
const conditionJson = (c: PostingCondition) => ({ wallet: c.walletId, asset: c.assetId, field: c.field, op: c.op, value: c.value.toString(), fractions: c.fractions });

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

/** Sample calls: src/queries/posting.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
const TRANSFER: PostingLeg = { kind: 'transfer', projectId: SAMPLE.projectId, assetId: SAMPLE.id, fromWalletId: SAMPLE.id, toWalletId: SAMPLE.id, amount: 1n, requestKey: null };
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new PostingRepository(db),
  calls: {
    resolvePosting: (r) => r.resolvePosting(SAMPLE.owner, SAMPLE.projectId, 'PTS', 'alice', SAMPLE.id),
    post: (r) => r.post([TRANSFER]),
    'post (with conditions)': (r) => r.post([{ ...TRANSFER, conditions: [{ walletId: SAMPLE.id, assetId: SAMPLE.id, fractions: 0, field: 'balance', op: 'lte', value: 1000n }] }]),
    'post (with a webhook call)': (r) => r.post([{ ...TRANSFER, call: { ownerId: SAMPLE.owner, flowId: 'reward', values: {}, message: 'rewarded' } }]),
    'post (a maturing hold, CONTRACT §26)': (r) => r.post([{ ...TRANSFER, kind: 'hold', matureIn: 86_400 }]),
    'rolledBack (a dry run)': (r) => r.rolledBack(() => r.post([TRANSFER])),
  },
});
