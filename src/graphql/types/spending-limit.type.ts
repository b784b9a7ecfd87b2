import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { LimitUsageView, LimitView } from '../../domain/limits/limit.types.js';
import { minorToDecimalString } from '../../domain/money.js';
import { DateTimeScalar, DecimalScalar } from '../scalars.js';
import { connectionType } from './connection.js';

/** Enum values map to the domain's lowercase strings (REST's `debit`, `credit`). */
export enum LimitDirectionEnum {
  DEBIT = 'debit',
  CREDIT = 'credit',
}
registerEnumType(LimitDirectionEnum, { name: 'LimitDirection', description: 'debit: money leaving the wallet; credit: money arriving.' });

/** Resolves from a LimitModel (`limitModel`). */
@ObjectType('Limit', { simpleResolvers: true, description: 'A spending (debit) or earning (credit) limit over a sliding window (CONTRACT §19).' })
export class LimitType {
  @Field(() => ID) id!: string;
  @Field(() => ID) projectId!: number;
  @Field(() => ID, { nullable: true, description: 'null: every customer wallet of the project.' }) walletId!: string | null;
  @Field({ description: 'The asset symbol.' }) currency!: string;
  @Field(() => LimitDirectionEnum) direction!: LimitDirectionEnum;
  @Field(() => DecimalScalar, { description: 'The most the wallet may move in the window (major units).' }) amount!: string;
  @Field(() => Int, { description: 'The window: (now − windowSeconds, now].' }) windowSeconds!: number;
  @Field(() => DateTimeScalar) createdAt!: Date;
}

@ObjectType('LimitUsage', { simpleResolvers: true, description: 'A limit that applies to the wallet now, with what it used and what remains (GET /wallets/{id}/limits).' })
export class LimitUsageType extends LimitType {
  @Field(() => DecimalScalar, { description: 'Counted movements in the window, plus (debit) pending holds created in it.' }) used!: string;
  @Field(() => DecimalScalar, { description: 'amount − used, never below 0.' }) remaining!: string;
}

export const LimitConnection = connectionType('Limit', LimitType);

export type LimitModel = Omit<LimitType, 'direction'> & { direction: string };
export type LimitUsageModel = LimitModel & { used: string; remaining: string };

export function limitModel(limit: LimitView): LimitModel {
  return {
    id: limit.id,
    projectId: limit.projectId,
    walletId: limit.walletId,
    currency: limit.currency,
    direction: limit.direction,
    amount: minorToDecimalString(limit.amount, limit.fractions),
    windowSeconds: limit.windowSeconds,
    createdAt: limit.createdAt,
  };
}

export const limitUsageModel = (usage: LimitUsageView): LimitUsageModel => ({
  ...limitModel(usage),
  used: minorToDecimalString(usage.used, usage.fractions),
  remaining: minorToDecimalString(usage.remaining, usage.fractions),
});
