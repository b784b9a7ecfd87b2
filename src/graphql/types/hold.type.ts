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
registerEnumType(HoldStatusEnum, {
  name: 'HoldStatus',
  description: "Where a hold stands: PENDING, then exactly one of CAPTURED, VOIDED or EXPIRED, each final.",
  valuesConfig: {
    PENDING: { description: "Reserving the amount: counted in the sender's `held`, waiting for captureHold or voidHold." },
    CAPTURED: { description: 'captureHold posted (part of) it; `transactionId` is the posting, the rest was released.' },
    VOIDED: { description: 'voidHold released it; nothing was posted.' },
    EXPIRED: { description: '`expiresAt` passed while it was pending: released from that instant (whatever background work has done yet); it can no longer be captured or voided.' },
  },
});

/** Resolves from a HoldModel (presenters.ts). */
@ObjectType('Hold', {
  simpleResolvers: true,
  description:
    "A reservation of part of a sender's available funds for a later transfer (two-phase transfer): createHold reserves, captureHold posts, voidHold releases. While pending it lowers the sender's `available`, not its `balance`; the receiver sees nothing until the capture.",
})
@Directive('@key(fields: "id")')
export class HoldType {
  @Field(() => ID, { description: "The hold's id (a UUID)." }) id!: string;
  @Field(() => ID, { description: 'The id of the project the hold belongs to.' }) projectId!: number;
  @Field(() => DecimalScalar, { description: 'The amount reserved at creation, in major units.' }) amount!: string;
  @Field({ description: "The asset's symbol." }) currency!: string;
  @Field({ description: "The sender's wallet address (whose funds are reserved)." }) from!: string;
  @Field({ description: "The receiver's wallet address." }) to!: string;
  @Field(() => HoldStatusEnum, { description: 'Where the hold stands; EXPIRED from the instant `expiresAt` passes.' }) status!: HoldStatusEnum;
  @Field(() => DecimalScalar, { description: 'The part captured, in major units: "0" unless CAPTURED.' }) capturedAmount!: string;
  @Field(() => ID, { nullable: true, description: "The id of the capture's transaction; null unless CAPTURED." }) transactionId!: string | null;
  @Field(() => DateTimeScalar, { nullable: true, description: 'When a pending hold expires; null: never.' }) expiresAt!: Date | string | null;
  @Field(() => DateTimeScalar, { nullable: true, description: 'When a maturing hold (a pending credit) captures itself for its whole amount; null for an ordinary hold. Never set with `expiresAt`.' }) maturesAt!: Date | string | null;
  @Field(() => DateTimeScalar, { description: 'When the hold was created.' }) createdAt!: Date | string;
  @Field(() => DateTimeScalar, { description: 'When the hold last changed status (its creation, if never).' }) updatedAt!: Date | string;
  @Field(() => String, { nullable: true, description: "The caller's reference, unique per project among transactions and holds; null when none was given." }) reference!: string | null;
  @Field(() => JSONObjectScalar, { description: "The caller's metadata ({} when none was given)." }) metadata!: Record<string, unknown>;
}

export const HoldConnection = connectionType('Hold', HoldType, 'HoldConnection', 'A page of holds, newest first.');

@ObjectType('HoldCapture', { simpleResolvers: true, description: 'The answer of captureHold: the transaction it posted and the hold, now CAPTURED.' })
export class HoldCaptureType {
  @Field(() => TransactionType, { description: "The posted transaction, from the hold's sender to its receiver; its `balance` is the sender's." }) transaction!: unknown;
  @Field(() => HoldType, { description: 'The hold after the capture.' }) hold!: unknown;
}
