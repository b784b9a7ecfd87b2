import { Arg, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { FLOW_CLASSES, type ProgramAnalytics } from '../../domain/analytics/analytics.types.js';
import { minorToDecimalString } from '../../domain/money.js';
import type { ProjectView } from '../../domain/projects/project.types.js';
import type { GraphQLContext } from '../context.js';
import { DateTimeScalar } from '../scalars.js';
import { ProgramAnalyticsType } from '../types/analytics.type.js';
import { ProjectType } from '../types/project.type.js';

/** Project.analytics: GET /projects/{id}/analytics; the domain checks the plan, then the arguments. */
@Resolver(() => ProjectType)
export class ProjectAnalyticsResolver {
  @FieldResolver(() => ProgramAnalyticsType, {
    nullable: true,
    description:
      'Program analytics (plans with advanced_analytics, else the error `feature_unavailable`): flows per UTC day or hour bucket, the liability at `until` and its value.',
  })
  async analytics(
    @Root() project: ProjectView,
    @Arg('currency', () => String, { nullable: true, description: 'An asset symbol of the project (default: its primary asset).' }) currency: string | null,
    @Arg('since', () => DateTimeScalar, { nullable: true, description: 'Rounded down to a bucket start (default: 30 buckets before `until`).' }) since: Date | null,
    @Arg('until', () => DateTimeScalar, { nullable: true, description: 'Rounded up to a bucket start (default: the end of the current bucket).' }) until: Date | null,
    @Arg('interval', () => String, { nullable: true, description: '"day" (default) or "hour".' }) interval: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<ProgramAnalyticsType> {
    const given = <T>(value: T | null): T | undefined => (value === null ? undefined : value);
    const answer = await ctx.services.analytics.analytics(ctx.principal, {
      projectId: project.id,
      currency: given(currency),
      since: given(since),
      until: given(until),
      interval: given(interval),
    });
    return analyticsModel(answer);
  }
}

/** The answer as GraphQL prints it: amounts as decimal strings of major units. */
function analyticsModel(answer: ProgramAnalytics): ProgramAnalyticsType {
  const major = (minor: bigint) => minorToDecimalString(minor, answer.fractions);
  const flows = (values: Record<(typeof FLOW_CLASSES)[number], bigint>) =>
    Object.fromEntries(FLOW_CLASSES.map((flow) => [flow, major(values[flow])])) as Record<(typeof FLOW_CLASSES)[number], string>;
  return {
    currency: answer.currency,
    interval: answer.interval,
    since: answer.since,
    until: answer.until,
    exchangeRate: answer.exchangeRate === null ? null : Number(answer.exchangeRate),
    totals: { ...flows(answer.totals), outstanding: major(answer.totals.outstanding), outstandingValue: answer.totals.outstandingValue },
    series: answer.series.map((bucket) => ({ start: bucket.start, ...flows(bucket), activeWallets: bucket.activeWallets })),
  };
}
