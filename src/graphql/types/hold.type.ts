import { Directive, Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeScalar, DecimalScalar, JSONObjectScalar } from '../scalars.js';
import { connectionType } from './connection.js';
import { TransactionType } from './transaction.type.js';

/** Enum values map to the domain's lowercase strings (REST's `pending`, …). */
export enum HoldStatusEnum {
  PENDING = 'pending',
  CAPTURED = 'captured',
  VOIDED = 'voided',
  EXPIRED = 'expired',
}
registerEnumType(HoldStatusEnum, { name: 'HoldStatus', description: 'pending → captured | voided | expired (expired from the instant expiresAt passes).' });

/** Resolves from a HoldModel (presenters.ts). */
@ObjectType('Hold', { simpleResolvers: true, description: "A reservation of the sender's available funds for a later capture or void (CONTRACT §10)." })
@Directive('@key(fields: "id")')
export class HoldType {
  @Field(() => ID) id!: string;
  @Field(() => ID) projectId!: number;
  @Field(() => DecimalScalar, { description: 'The amount reserved at creation (major units).' }) amount!: string;
  @Field({ description: 'The asset symbol.' }) currency!: string;
  @Field({ description: 'Address of the sender.' }) from!: string;
  @Field({ description: 'Address of the receiver.' }) to!: string;
  @Field(() => HoldStatusEnum) status!: HoldStatusEnum;
  @Field(() => DecimalScalar, { description: 'The captured part (0 until captured).' }) capturedAmount!: string;
  @Field(() => ID, { nullable: true, description: "The capture's transaction." }) transactionId!: string | null;
  @Field(() => DateTimeScalar, { nullable: true }) expiresAt!: Date | string | null;
  @Field(() => DateTimeScalar) createdAt!: Date | string;
  @Field(() => DateTimeScalar) updatedAt!: Date | string;
  @Field(() => String, { nullable: true }) reference!: string | null;
  @Field(() => JSONObjectScalar) metadata!: Record<string, unknown>;
}

export const HoldConnection = connectionType('Hold', HoldType);

@ObjectType('HoldCapture', { simpleResolvers: true, description: 'captureHold: the posted transaction (balance: the sender’s) and the captured hold.' })
export class HoldCaptureType {
  @Field(() => TransactionType) transaction!: unknown;
  @Field(() => HoldType) hold!: unknown;
}
