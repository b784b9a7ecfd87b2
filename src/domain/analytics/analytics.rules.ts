import { z } from 'zod';
import { LedgerError, validationError } from '../errors.js';
import { decimalParts, minorToDecimalString } from '../money.js';
import type { Plan } from '../auth/plans.js';
import type { AnalyticsInterval } from './analytics.types.js';

export const IntervalRule = z.enum(['day', 'hour']);

export const INTERVAL_MS: Record<AnalyticsInterval, number> = { hour: 3_600_000, day: 86_400_000 };
/** The range by default: this many buckets, ending with the current one. */
export const DEFAULT_BUCKETS = 30;
export const MAX_BUCKETS = 400;

/** The plan flag analytics need (CONTRACT §2, §23). */
export function requireAdvancedAnalytics(plan: Plan): void {
  if (!plan.advanced_analytics) {
    throw new LedgerError('feature_unavailable', `program analytics are not part of the ${plan.code} plan (advanced_analytics)`, { feature: 'advanced_analytics', plan: plan.code });
  }
}

const floorTo = (ms: number, step: number): number => Math.floor(ms / step) * step;
const ceilTo = (ms: number, step: number): number => Math.ceil(ms / step) * step;

/**
 * The buckets asked for, aligned to UTC hour or day starts: `since` rounded down, `until` up.
 * Absent `until`: the end of the current bucket; absent `since`: DEFAULT_BUCKETS before `until`.
 * `since` must lie before `until` (as given, and so after rounding), and the range span at most
 * MAX_BUCKETS buckets.
 */
export function bucketRange(interval: AnalyticsInterval, since: Date | null, until: Date | null, now: Date): { since: Date; until: Date; buckets: number } {
  const step = INTERVAL_MS[interval];
  const end = until === null ? floorTo(now.getTime(), step) + step : ceilTo(until.getTime(), step);
  const start = since === null ? end - DEFAULT_BUCKETS * step : floorTo(since.getTime(), step);
  if ((since !== null && until !== null && since.getTime() >= until.getTime()) || start >= end) throw validationError('since', 'must be before until');
  const buckets = (end - start) / step;
  if (buckets > MAX_BUCKETS) throw validationError('since', `the range spans ${buckets} ${interval} buckets; at most ${MAX_BUCKETS}`);
  return { since: new Date(start), until: new Date(end), buckets };
}

/**
 * outstanding (minor units of a `fractions` asset) ÷ exchangeRate, rounded to 2 decimals, half
 * away from zero, in exact integer arithmetic: rate = digits × 10^exponent, so the value in
 * hundredths is outstanding × 100 ÷ (10^fractions × digits × 10^exponent).
 */
export function outstandingValue(outstanding: bigint, fractions: number, exchangeRate: string): string {
  const rate = decimalParts(exchangeRate.trim());
  if (!rate || rate.negative || rate.digits === '') throw new Error(`not a positive exchange rate: ${exchangeRate}`);
  let numerator = (outstanding < 0n ? -outstanding : outstanding) * 100n;
  let denominator = 10n ** BigInt(fractions) * BigInt(rate.digits);
  if (rate.exponent >= 0) denominator *= 10n ** BigInt(rate.exponent);
  else numerator *= 10n ** BigInt(-rate.exponent);
  const hundredths = (2n * numerator + denominator) / (2n * denominator);
  return minorToDecimalString(outstanding < 0n ? -hundredths : hundredths, 2);
}
