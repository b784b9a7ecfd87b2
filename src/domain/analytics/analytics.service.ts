import type { Principal } from '../auth/api-key.service.js';
import { notFound } from '../errors.js';
import { CurrencyRule } from '../ledger/ledger.rules.js';
import { ProjectIdRule } from '../shared/ids.js';
import { checkField } from '../shared/validation.js';
import type { AnalyticsRepository } from './analytics.repository.js';
import { bucketRange, INTERVAL_MS, IntervalRule, outstandingValue, requireAdvancedAnalytics } from './analytics.rules.js';
import { FLOW_CLASSES, type AnalyticsBucket, type AnalyticsQuery, type ProgramAnalytics } from './analytics.types.js';

/**
 * Program analytics (CONTRACT §23), read from the rollups the event numbering keeps
 * (analytics_fold.sql), so an answer reads one row per bucket whatever the history's length.
 * Checks in the contract's order: the plan's flag, then the parameters, then the project and
 * its currency.
 */
export class AnalyticsService {
  constructor(
    private readonly repository: AnalyticsRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async analytics(principal: Principal, query: AnalyticsQuery): Promise<ProgramAnalytics> {
    requireAdvancedAnalytics(principal.plan);
    const projectId = checkField('projectId', ProjectIdRule, query.projectId);
    const interval = query.interval === undefined ? 'day' : checkField('interval', IntervalRule, query.interval);
    const symbol = query.currency === undefined ? null : checkField('currency', CurrencyRule, query.currency);
    const range = bucketRange(interval, query.since ?? null, query.until ?? null, this.now());

    const subject = await this.repository.subject(principal.ownerId, projectId, symbol);
    if (!subject) throw notFound('project', projectId);
    const asset = subject.asset;
    if (!asset) throw notFound('currency', symbol ?? 'the primary asset');

    const read = await this.repository.read(projectId, asset.id, interval, range.since, range.until);
    const series = dense(read.buckets, range.since.getTime(), range.buckets, INTERVAL_MS[interval]);
    const totals = Object.fromEntries(FLOW_CLASSES.map((flow) => [flow, series.reduce((sum, bucket) => sum + bucket[flow], 0n)])) as Record<(typeof FLOW_CLASSES)[number], bigint>;
    const rate = subject.supportExchangeRate ? subject.exchangeRate : null;
    return {
      currency: asset.symbol,
      fractions: asset.fractions,
      interval,
      since: range.since,
      until: range.until,
      exchangeRate: rate,
      totals: { ...totals, outstanding: read.outstandingAtUntil, outstandingValue: rate === null ? null : outstandingValue(read.outstandingAtUntil, asset.fractions, rate) },
      series,
    };
  }

  /** Recomputes a project's rollups from its transactions (the CLI, tests); how many buckets it wrote. */
  rebuild(projectId: number): Promise<number> {
    return this.repository.rebuild(projectId);
  }
}

/** Every bucket of the range in order, the ones without postings as zeros. */
function dense(stored: AnalyticsBucket[], since: number, count: number, step: number): AnalyticsBucket[] {
  const byStart = new Map(stored.map((bucket) => [bucket.start.getTime(), bucket]));
  return Array.from({ length: count }, (_, i) => {
    const start = since + i * step;
    return byStart.get(start) ?? { start: new Date(start), issued: 0n, redeemed: 0n, transferred: 0n, expired: 0n, reversed: 0n, activeWallets: 0 };
  });
}
