import { Field, Float, Int, ObjectType } from 'type-graphql';
import { DateTimeScalar, DecimalScalar } from '../scalars.js';

@ObjectType('AnalyticsTotals', { simpleResolvers: true, description: 'The flows over [since, until) (the sums of the series) and the liability at `until`; major units.' })
export class AnalyticsTotalsType {
  @Field(() => DecimalScalar, { description: 'System wallet or @mint → customer wallet.' }) issued!: string;
  @Field(() => DecimalScalar, { description: 'Customer → system wallet.' }) redeemed!: string;
  @Field(() => DecimalScalar, { description: 'Customer → customer wallet.' }) transferred!: string;
  @Field(() => DecimalScalar, { description: 'Customer → @expired.' }) expired!: string;
  @Field(() => DecimalScalar, { description: 'Reversal transactions of any parties (also counted in their class).' }) reversed!: string;
  @Field(() => DecimalScalar, { description: 'The customer wallets’ total balance at `until`.' }) outstanding!: string;
  @Field(() => DecimalScalar, { nullable: true, description: 'outstanding ÷ exchangeRate, 2 decimals (half away from zero); null without supportExchangeRate.' })
  outstandingValue!: string | null;
}

@ObjectType('AnalyticsBucket', { simpleResolvers: true, description: 'One UTC day or hour of a program’s flows, major units.' })
export class AnalyticsBucketType {
  @Field(() => DateTimeScalar, { description: 'The bucket’s first instant (a UTC day or hour start); the bucket ends where the next begins.' }) start!: Date;
  @Field(() => DecimalScalar, { description: 'Issued in the bucket: system wallet or @mint → customer wallet.' }) issued!: string;
  @Field(() => DecimalScalar, { description: 'Redeemed in the bucket: customer → system wallet.' }) redeemed!: string;
  @Field(() => DecimalScalar, { description: 'Transferred in the bucket: customer → customer wallet.' }) transferred!: string;
  @Field(() => DecimalScalar, { description: 'Expired in the bucket: customer → @expired.' }) expired!: string;
  @Field(() => DecimalScalar, { description: 'The amount of reversal transactions in the bucket, of any parties (also counted in their class).' }) reversed!: string;
  @Field(() => Int, { description: 'Customer wallets on either side of a posting in the bucket.' }) activeWallets!: number;
}

@ObjectType('ProgramAnalytics', { simpleResolvers: true, description: 'A loyalty program’s flows in one currency per UTC day or hour (issued, redeemed, transferred, expired, reversed), their totals and the outstanding liability: outstanding at `until` − outstanding at `since` = issued − redeemed − expired. Only for plans with advanced_analytics (others: `feature_unavailable`).' })
export class ProgramAnalyticsType {
  @Field({ description: 'The asset symbol the figures are in (the project’s primary asset unless asked).' }) currency!: string;
  @Field({ description: '"day" or "hour".' }) interval!: string;
  @Field(() => DateTimeScalar, { description: 'The first bucket’s start.' }) since!: Date;
  @Field(() => DateTimeScalar, { description: 'The end of the last bucket (exclusive).' }) until!: Date;
  @Field(() => Float, { nullable: true, description: 'The project’s rate; null without supportExchangeRate.' }) exchangeRate!: number | null;
  @Field(() => AnalyticsTotalsType, { description: 'The sums of the series over [since, until) and the liability at `until`.' }) totals!: AnalyticsTotalsType;
  @Field(() => [AnalyticsBucketType], { description: 'Every bucket of the range, oldest first, empty ones included.' }) series!: AnalyticsBucketType[];
}
