import { z } from 'zod';
import { FLOW_CLASSES, type AnalyticsBucket, type ProgramAnalytics } from '../domain/analytics/analytics.types.js';
import { toMajor } from '../domain/money.js';
import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { ProjectIdParams } from './projects.schemas.js';
import { InstantQuery, Symbol } from './schemas.js';

const AnalyticsQuery = z.strictObject({
  currency: Symbol.optional().meta({ description: 'An asset symbol of the project (default: its primary asset).' }),
  since: InstantQuery.optional().meta({ description: 'ISO 8601 with Z or an offset, rounded down to a bucket start (default: 30 buckets before `until`).' }),
  until: InstantQuery.optional().meta({
    description: 'ISO 8601 with Z or an offset, rounded up to a bucket start (default: the end of the current bucket); may lie in the future (the current bucket is then partial); at most 400 buckets after `since`.',
  }),
  interval: z.enum(['day', 'hour']).optional().meta({ description: 'UTC day (default) or hour buckets.' }),
});

const Amount = z.number().meta({ description: 'Major units.' });
const Flows = { issued: Amount, redeemed: Amount, transferred: Amount, expired: Amount, reversed: Amount };

const AnalyticsBody = z.object({
  currency: z.string(),
  interval: z.enum(['day', 'hour']),
  since: z.string().meta({ description: 'The first bucket’s start.' }),
  until: z.string().meta({ description: 'The end of the last bucket (exclusive).' }),
  exchangeRate: z.number().nullable().meta({ description: 'The project’s rate, null without supportExchangeRate.' }),
  totals: z.object({
    ...Flows,
    outstanding: Amount.meta({ description: 'The customer wallets’ total balance at `until`.' }),
    outstandingValue: z.number().nullable().meta({ description: 'outstanding ÷ exchangeRate, 2 decimals (half away from zero); null without supportExchangeRate.' }),
  }),
  series: z.array(z.object({ start: z.string(), ...Flows, activeWallets: z.number().int() })),
});

/** The answer as REST prints it: amounts in major units (JSON numbers), instants as ISO text. */
function analyticsJson(answer: ProgramAnalytics): z.infer<typeof AnalyticsBody> {
  const flows = (values: Record<(typeof FLOW_CLASSES)[number], bigint>) =>
    Object.fromEntries(FLOW_CLASSES.map((flow) => [flow, toMajor(values[flow], answer.fractions)])) as Record<(typeof FLOW_CLASSES)[number], number>;
  return {
    currency: answer.currency,
    interval: answer.interval,
    since: answer.since.toISOString(),
    until: answer.until.toISOString(),
    exchangeRate: answer.exchangeRate === null ? null : Number(answer.exchangeRate),
    totals: {
      ...flows(answer.totals),
      outstanding: toMajor(answer.totals.outstanding, answer.fractions),
      outstandingValue: answer.totals.outstandingValue === null ? null : Number(answer.totals.outstandingValue),
    },
    series: answer.series.map((bucket: AnalyticsBucket) => ({ start: bucket.start.toISOString(), ...flows(bucket), activeWallets: bucket.activeWallets })),
  };
}

export function analyticsRoutes({ analytics }: Services): Route[] {
  return [
    route({
      method: 'GET',
      path: '/projects/{id}/analytics',
      auth: 'api_key',
      feature: 'advanced_analytics',
      params: ProjectIdParams,
      query: AnalyticsQuery,
      doc: {
        operationId: 'getProjectAnalytics',
        summary:
          "Program analytics (plans with advanced_analytics; others: 403 feature_unavailable before anything else is checked): issued, redeemed, transferred, expired and reversed per UTC day or hour bucket (every bucket, empty ones included; totals = sums of the series), the outstanding liability at `until` and its value at the project's exchange rate. Includes every posting committed at least 1 s before the call",
        tag: 'projects',
        response: { status: 200, schema: AnalyticsBody },
        errors: ['feature_unavailable', 'validation_error', 'not_found'],
      },
      handler: async ({ principal, params, query }) => ({
        status: 200,
        body: analyticsJson(await analytics.analytics(principal, { projectId: params.id, ...query })),
      }),
    }),
  ];
}
