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
registerEnumType(LimitDirectionEnum, {
  name: 'LimitDirection',
  description: 'Which movements a limit counts.',
  valuesConfig: {
    DEBIT: { description: 'Money leaving the wallet: transfers and batch legs it sends, captures of its holds, redemptions; its pending holds count from their creation.' },
    CREDIT: { description: 'Money arriving in the wallet: transfers and batch legs it receives, seeds, captures paid to it, rewards.' },
  },
});

/** Resolves from a LimitModel (`limitModel`). */
@ObjectType('Limit', { simpleResolvers: true, description: 'A spending (debit) or earning (credit) limit over a sliding window: a posting or hold that would take what the wallet moved in the window above `amount` is refused with `limit_exceeded`. Reversals and expiries are neither counted nor checked.' })
export class LimitType {
  @Field(() => ID, { description: 'The limit’s id (for deleteLimit).' }) id!: string;
  @Field(() => ID, { description: 'The project the limit belongs to.' }) projectId!: number;
  @Field(() => ID, { nullable: true, description: 'null: every customer wallet of the project.' }) walletId!: string | null;
  @Field({ description: 'The asset symbol.' }) currency!: string;
  @Field(() => LimitDirectionEnum, { description: 'Whether money leaving (DEBIT) or arriving (CREDIT) is counted.' }) direction!: LimitDirectionEnum;
  @Field(() => DecimalScalar, { description: 'The most the wallet may move in the window (major units).' }) amount!: string;
  @Field(() => Int, { description: 'The window: (now − windowSeconds, now].' }) windowSeconds!: number;
  @Field(() => DateTimeScalar, { description: 'When the limit was created.' }) createdAt!: Date;
}

@ObjectType('LimitUsage', { simpleResolvers: true, description: 'A limit that applies to the wallet now (its own limits, or else, for a customer wallet, the project-wide ones), with what it used and what remains.' })
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
