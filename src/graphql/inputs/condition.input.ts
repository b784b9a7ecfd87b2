import { Field, InputType, registerEnumType } from 'type-graphql';
import { DecimalScalar } from '../scalars.js';

/** Enum values map to the domain's lowercase strings (REST's `balance`, `gte`, …). */
export enum ConditionFieldEnum {
  BALANCE = 'balance',
  AVAILABLE = 'available',
}
registerEnumType(ConditionFieldEnum, {
  name: 'ConditionField',
  description: 'Which value of a party a condition compares, after the posting.',
  valuesConfig: {
    BALANCE: { description: 'The posted balance.' },
    AVAILABLE: { description: 'balance − held + creditLimit.' },
  },
});

export enum ConditionOpEnum {
  GTE = 'gte',
  GT = 'gt',
  LTE = 'lte',
  LT = 'lt',
  EQ = 'eq',
}
registerEnumType(ConditionOpEnum, {
  name: 'ConditionOp',
  description: 'The comparison of `field op value`.',
  valuesConfig: {
    GTE: { description: 'field ≥ value.' },
    GT: { description: 'field > value.' },
    LTE: { description: 'field ≤ value.' },
    LT: { description: 'field < value.' },
    EQ: { description: 'field = value.' },
  },
});

export const CONDITIONS_DESCRIPTION =
  'At most 10, judged once the posting is done, after every other check, in order: the first that does not hold refuses it with `condition_failed` (`extensions.details` {index, actual}) and nothing is posted.';

@InputType('ConditionInput', { description: 'Post only if, afterwards, `field op value` holds for this party in this currency.' })
export class ConditionInput {
  @Field({ description: 'A party of the posting (its sender or receiver): a wallet id or address; another wallet: `validation_error`.' }) wallet!: string;
  @Field({ description: 'An asset symbol of the project; a currency the posting does not move is judged on its unchanged values.' }) currency!: string;
  @Field(() => ConditionFieldEnum, { description: 'The value compared, after the posting.' }) field!: ConditionFieldEnum;
  @Field(() => ConditionOpEnum, { description: 'The comparison: `field op value`.' }) op!: ConditionOpEnum;
  @Field(() => DecimalScalar, { description: 'Major units; may be below zero.' }) value!: string | number;
}
