import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeScalar, DecimalScalar } from '../scalars.js';
import { connectionType } from './connection.js';

/** Enum values map to the domain's lowercase strings (REST's `balance`, `lt`, …). */
export enum MonitorFieldEnum {
  BALANCE = 'balance',
  AVAILABLE = 'available',
}
registerEnumType(MonitorFieldEnum, { name: 'MonitorField', description: 'balance (posted) or available (balance − held).' });

export enum MonitorOperatorEnum {
  LT = 'lt',
  LTE = 'lte',
  GT = 'gt',
  GTE = 'gte',
}
registerEnumType(MonitorOperatorEnum, { name: 'MonitorOperator', description: 'The comparison of `field operator value`.' });

/** Resolves from a BalanceMonitorModel (balance-monitor.resolver.ts). */
@ObjectType('BalanceMonitor', {
  simpleResolvers: true,
  description: 'A threshold on a wallet’s (or every customer wallet’s) balance or available funds in one currency (CONTRACT §20): each committed change that makes `field operator value` true writes one `balance.threshold_crossed` event.',
})
export class BalanceMonitorType {
  @Field(() => ID) id!: string;
  @Field(() => ID) projectId!: number;
  @Field(() => ID, { nullable: true, description: 'null: every customer wallet of the project.' }) walletId!: string | null;
  @Field({ description: 'The asset symbol.' }) currency!: string;
  @Field(() => MonitorFieldEnum) field!: MonitorFieldEnum;
  @Field(() => MonitorOperatorEnum) operator!: MonitorOperatorEnum;
  @Field(() => DecimalScalar, { description: 'Major units.' }) value!: string;
  @Field(() => DateTimeScalar) createdAt!: Date | string;
}

export const BalanceMonitorConnection = connectionType('BalanceMonitor', BalanceMonitorType);

@ObjectType('DeleteBalanceMonitorPayload', { simpleResolvers: true })
export class DeleteBalanceMonitorPayload {
  @Field(() => ID) id!: string;
  @Field() deleted!: boolean;
}
