import { Field, ID, InputType } from 'type-graphql';
import { DecimalScalar, JSONObjectScalar } from '../scalars.js';
import { ConditionInput, CONDITIONS_DESCRIPTION } from './condition.input.js';

const CURRENCY = 'An asset symbol of the project (else `not_found`).';
const AMOUNT = "Major units, > 0, with at most the asset's `fractions` decimals (and at most 2⁵³−1 minor units), else `validation_error`.";
const REFERENCE = 'Your own reference, 1–128 of A–Z a–z 0–9 . _ : / # -, unique per project among transactions and holds (reused: `conflict` with `details.existingId`).';
const METADATA = 'Any JSON object of at most 4 KiB serialised, kept with the transaction; default {}.';

@InputType('TransferInput', { description: 'A transfer between two wallets of one project.' })
export class TransferInput {
  @Field(() => ID, { description: 'One of your projects (else `not_found`).' }) projectId!: string;
  @Field({ description: CURRENCY }) currency!: string;
  @Field({ description: 'The sender: a wallet id or address in the project, ACTIVE, whose `available` balance covers the amount.' }) from!: string;
  @Field({ description: 'The receiver: a wallet id or address in the project, ACTIVE, not the sender.' }) to!: string;
  @Field(() => DecimalScalar, { description: AMOUNT }) amount!: string | number;
  @Field(() => String, { nullable: true, description: REFERENCE }) reference?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: METADATA }) metadata?: Record<string, unknown> | null;
  @Field(() => [ConditionInput], { nullable: true, description: CONDITIONS_DESCRIPTION }) conditions?: ConditionInput[] | null;
}

@InputType('BatchTransferInput', { description: 'One transfer (leg) of transferBatch, in the batch\'s project; checked as `transfer` is, after the legs before it.' })
export class BatchTransferInput {
  @Field({ description: CURRENCY }) currency!: string;
  @Field({ description: 'The sender: a wallet id or address in the project (it may spend what an earlier leg credited it).' }) from!: string;
  @Field({ description: 'The receiver: a wallet id or address in the project, not the sender.' }) to!: string;
  @Field(() => DecimalScalar, { description: AMOUNT }) amount!: string | number;
  @Field(() => String, { nullable: true, description: `${REFERENCE} Two legs of a batch cannot share one.` }) reference?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: METADATA }) metadata?: Record<string, unknown> | null;
  @Field(() => [ConditionInput], { nullable: true, description: `${CONDITIONS_DESCRIPTION} A leg's conditions name its own parties and see the batch's earlier legs; refused: \`details\` {index: leg, condition, actual}.` })
  conditions?: ConditionInput[] | null;
}

@InputType('SeedInput', { description: 'New money minted from @mint into a system wallet.' })
export class SeedInput {
  @Field(() => ID, { description: 'One of your projects (else `not_found`).' }) projectId!: string;
  @Field({ description: CURRENCY }) currency!: string;
  @Field({ description: 'The receiver: a SYSTEM wallet id or address in the project (a customer wallet: `validation_error`).' }) to!: string;
  @Field(() => DecimalScalar, { description: AMOUNT }) amount!: string | number;
  @Field(() => String, { nullable: true, description: REFERENCE }) reference?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: METADATA }) metadata?: Record<string, unknown> | null;
}

@InputType('WebhookInput', { description: 'A call of the inbound webhook: a named flow and its values.' })
export class WebhookInput {
  @Field({ description: 'The flow, 1–200 characters: "reward" and "redeem" post a transfer; any other name is recorded only.' }) flowId!: string;
  @Field(() => ID, { description: 'One of your projects (else `not_found`).' }) projectId!: string;
  @Field(() => JSONObjectScalar, {
    description:
      'The flow\'s values. reward: `to` (a customer wallet id or address), `amount` in points or `fiatAmount` (with the project\'s supportExchangeRate), optional `from` (a system wallet; default: the project\'s oldest active one) and `currency` (default: the primary asset). redeem: `from` (a customer wallet), `amount`, optional `to` (a system wallet, same default) and `currency`. Pass the object in a variable to keep every digit of a number.',
  })
  values!: Record<string, unknown>;
}
