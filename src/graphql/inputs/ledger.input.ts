import { Field, ID, InputType } from 'type-graphql';
import { DecimalScalar, JSONObjectScalar } from '../scalars.js';

@InputType('TransferInput')
export class TransferInput {
  @Field(() => ID) projectId!: string;
  @Field({ description: 'An asset symbol of the project.' }) currency!: string;
  @Field({ description: 'Sender: a wallet id or address in the project.' }) from!: string;
  @Field({ description: 'Receiver: a wallet id or address in the project.' }) to!: string;
  @Field(() => DecimalScalar, { description: "Major units, > 0, at most the asset's fractions decimals." }) amount!: string | number;
  @Field(() => String, { nullable: true, description: 'Unique per project among transactions and holds: 1–128 of A–Z a–z 0–9 . _ : / # -.' }) reference?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: 'A JSON object of at most 4 KiB serialised.' }) metadata?: Record<string, unknown> | null;
}

@InputType('BatchTransferInput', { description: 'One leg of transferBatch.' })
export class BatchTransferInput {
  @Field({ description: 'An asset symbol of the project.' }) currency!: string;
  @Field({ description: 'Sender: a wallet id or address in the project.' }) from!: string;
  @Field({ description: 'Receiver: a wallet id or address in the project.' }) to!: string;
  @Field(() => DecimalScalar, { description: "Major units, > 0, at most the asset's fractions decimals." }) amount!: string | number;
  @Field(() => String, { nullable: true }) reference?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true }) metadata?: Record<string, unknown> | null;
}

@InputType('SeedInput')
export class SeedInput {
  @Field(() => ID) projectId!: string;
  @Field({ description: 'An asset symbol of the project.' }) currency!: string;
  @Field({ description: 'A system wallet id or address in the project.' }) to!: string;
  @Field(() => DecimalScalar, { description: "Major units, > 0, at most the asset's fractions decimals." }) amount!: string | number;
  @Field(() => String, { nullable: true }) reference?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true }) metadata?: Record<string, unknown> | null;
}

@InputType('WebhookInput')
export class WebhookInput {
  @Field({ description: '"reward", "redeem", or any other flow (recorded only).' }) flowId!: string;
  @Field(() => ID) projectId!: string;
  @Field(() => JSONObjectScalar) values!: Record<string, unknown>;
}
