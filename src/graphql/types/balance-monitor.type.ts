import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeScalar, DecimalScalar } from '../scalars.js';
import { connectionType } from './connection.js';

/** Enum values map to the domain's lowercase strings (REST's `balance`, `lt`, …). */
export enum MonitorFieldEnum {
  BALANCE = 'balance',
  AVAILABLE = 'available',
}
registerEnumType(MonitorFieldEnum, {
  name: 'MonitorField',
  description: 'Which value of the wallet a monitor watches.',
  valuesConfig: {
    BALANCE: { description: 'The posted balance.' },
    AVAILABLE: { description: 'What the wallet can spend: the balance minus its pending holds.' },
  },
});

export enum MonitorOperatorEnum {
  LT = 'lt',
  LTE = 'lte',
  GT = 'gt',
  GTE = 'gte',
}
registerEnumType(MonitorOperatorEnum, {
  name: 'MonitorOperator',
  description: 'The comparison of `field operator value`.',
  valuesConfig: {
    LT: { description: 'field < value.' },
    LTE: { description: 'field ≤ value.' },
    GT: { description: 'field > value.' },
    GTE: { description: 'field ≥ value.' },
  },
});

/** Resolves from a BalanceMonitorModel (balance-monitor.resolver.ts). */
@ObjectType('BalanceMonitor', {
  simpleResolvers: true,
  description: 'A threshold on a wallet’s (or every customer wallet’s) balance or available funds in one currency: each committed change that makes `field operator value` true writes one `balance.threshold_crossed` event.',
})
export class BalanceMonitorType {
  @Field(() => ID, { description: 'The monitor’s id (for deleteBalanceMonitor).' }) id!: string;
  @Field(() => ID, { description: 'The project the monitor belongs to.' }) projectId!: number;
  @Field(() => ID, { nullable: true, description: 'null: every customer wallet of the project.' }) walletId!: string | null;
  @Field({ description: 'The asset symbol.' }) currency!: string;
  @Field(() => MonitorFieldEnum, { description: 'The value watched: balance or available.' }) field!: MonitorFieldEnum;
  @Field(() => MonitorOperatorEnum, { description: 'The comparison with `value`.' }) operator!: MonitorOperatorEnum;
  @Field(() => DecimalScalar, { description: 'Major units.' }) value!: string;
  @Field(() => DateTimeScalar, { description: 'When the monitor was created (creating one fires nothing).' }) createdAt!: Date | string;
}

export const BalanceMonitorConnection = connectionType('BalanceMonitor', BalanceMonitorType);

@ObjectType('DeleteBalanceMonitorPayload', { simpleResolvers: true, description: 'The answer to deleteBalanceMonitor.' })
export class DeleteBalanceMonitorPayload {
  @Field(() => ID, { description: 'The deleted monitor’s id.' }) id!: string;
  @Field({ description: 'Always true: the monitor crosses no more (events already written stay).' }) deleted!: boolean;
}
