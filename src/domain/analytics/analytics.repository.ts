import type { Database } from '../../db/database.js';
import { ownedBy } from '../ownership/ownership.sql.js';
import type { AnalyticsBucket, AnalyticsInterval, AnalyticsSubject, RollupRead } from './analytics.types.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

interface SubjectRow {
  exchange_rate: string;
  support_exchange_rate: boolean;
  asset_id: string | null;
  symbol: string | null;
  fractions: number | null;
}

/** A bucket as the read sends it: [start (ms), issued, redeemed, transferred, expired, reversed, active wallets]. */
type BucketTuple = [string, string, string, string, string, string, number];

/** Program analytics over the rollups (Migration20261126173000_analytics, src/domain/analytics/*.sql). */
export class AnalyticsRepository {
  constructor(private readonly db: Database) {}

  /**
   * The owner's project and the currency asked for: an asset of the project (its own first) or the
   * primary asset it shares, by symbol; without a symbol its primary asset. Null: no such project
   * of the owner; `asset` null: no such currency.
   */
  async subject(ownerId: string, projectId: number, symbol: string | null): Promise<AnalyticsSubject | null> {
    const [row] = await this.db.query<SubjectRow>(
      `SELECT p.exchange_rate::text AS exchange_rate, p.support_exchange_rate, a.id AS asset_id, a.symbol, a.fractions
         FROM projects p
         LEFT JOIN LATERAL (
           SELECT a.id, a.symbol, a.fractions FROM assets a
            WHERE CASE WHEN $3::text IS NULL THEN a.id = p.asset_id ELSE (a.project_id = p.id OR a.id = p.asset_id) AND a.symbol = $3 END
            ORDER BY (a.project_id = p.id) DESC LIMIT 1
         ) a ON true
        WHERE p.id = $1 AND ${ownedBy('p', '$2')}`,
      [projectId, ownerId, symbol],
    );
    if (!row) return null;
    return {
      exchangeRate: row.exchange_rate,
      supportExchangeRate: row.support_exchange_rate,
      asset: row.asset_id === null ? null : { id: row.asset_id, symbol: row.symbol!, fractions: row.fractions! },
    };
  }

  /**
   * One statement, whatever the history's length: the buckets of `grain` in [since, until) that
   * had postings (at most one row per bucket, by the primary key), and the outstanding at the end
   * of the last bucket before `until` (one descent of the same key).
   */
  async read(projectId: number, assetId: string, grain: AnalyticsInterval, since: Date, until: Date): Promise<RollupRead> {
    const [row] = await this.db.query<{ outstanding: string | null; buckets: BucketTuple[] }>(
      `SELECT (SELECT b.outstanding::text FROM analytics_buckets b
                WHERE b.project_id = $1 AND b.asset_id = $2 AND b.grain = $3 AND b.start < $5
                ORDER BY b.start DESC LIMIT 1) AS outstanding,
              (SELECT coalesce(json_agg(json_build_array((extract(epoch FROM b.start) * 1000)::bigint::text, b.issued::text, b.redeemed::text,
                                                         b.transferred::text, b.expired::text, b.reversed::text, b.active_wallets) ORDER BY b.start), '[]')
                 FROM analytics_buckets b
                WHERE b.project_id = $1 AND b.asset_id = $2 AND b.grain = $3 AND b.start >= $4 AND b.start < $5) AS buckets`,
      [projectId, assetId, grain, since, until],
    );
    return { outstandingAtUntil: BigInt(row.outstanding ?? '0'), buckets: row.buckets.map(toBucket) };
  }

  /** Recomputes a project's rollups from its transactions (analytics_rebuild.sql); how many buckets it wrote. */
  async rebuild(projectId: number): Promise<number> {
    const [row] = await this.db.query<{ buckets: number }>(`SELECT analytics_rebuild($1) AS buckets`, [projectId]);
    return row.buckets;
  }

  /** Every project id, oldest first (a rebuild of all of them). */
  async projectIds(): Promise<number[]> {
    const rows = await this.db.query<{ id: number }>(`SELECT id FROM projects ORDER BY id`);
    return rows.map((r) => r.id);
  }
}

function toBucket([start, issued, redeemed, transferred, expired, reversed, activeWallets]: BucketTuple): AnalyticsBucket {
  return {
    start: new Date(Number(start)),
    issued: BigInt(issued),
    redeemed: BigInt(redeemed),
    transferred: BigInt(transferred),
    expired: BigInt(expired),
    reversed: BigInt(reversed),
    activeWallets,
  };
}

/** Sample calls: src/queries/analytics.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new AnalyticsRepository(db),
  calls: {
    subject: (r) => r.subject(SAMPLE.owner, SAMPLE.projectId, 'PTS'),
    read: (r) => r.read(SAMPLE.projectId, SAMPLE.id, 'day', SAMPLE.at, SAMPLE.at),
    rebuild: (r) => r.rebuild(SAMPLE.projectId),
    projectIds: (r) => r.projectIds(),
  },
});
