import { Directive, Field, ID, ObjectType } from 'type-graphql';
import { DateTimeScalar, DecimalScalar, JSONObjectScalar } from '../scalars.js';
import { connectionType } from './connection.js';

/** Resolves from a TransactionModel (presenters.ts); fromWallet and toWallet are in TransactionResolver. */
@ObjectType('Transaction', { simpleResolvers: true, description: 'A posted movement of one currency between two wallets (or from @mint).' })
@Directive('@key(fields: "id")')
export class TransactionType {
  @Field(() => ID) id!: string;
  @Field(() => ID) projectId!: number;
  @Field(() => DecimalScalar, { description: 'Major units, as a decimal string.' }) amount!: string;
  @Field({ description: 'The asset symbol.' }) currency!: string;
  @Field({ description: 'Address of the sender; "@mint" for a seed.' }) from!: string;
  @Field({ description: 'Address of the receiver; "@expired" for expired points.' }) to!: string;
  @Field(() => DateTimeScalar, { description: 'Posting time.' }) date!: Date;
  @Field(() => DecimalScalar, {
    nullable: true,
    description:
      'The resulting balance, after this transaction, of the wallet whose history lists it (of the sender for `transfer`, of the seeded wallet for `seed`, as REST); null when the transaction is read by id.',
  })
  balance!: string | null;
  @Field(() => ID, { nullable: true, description: 'The original transaction this one reverses, or null.' }) reverses!: string | null;
  @Field(() => DecimalScalar, { description: 'Major units reversed so far by later reversals of this one (0 for none).' }) reversedAmount!: string;
  @Field(() => String, { nullable: true, description: 'The caller\'s reference, unique per project among transactions and holds.' }) reference!: string | null;
  @Field(() => JSONObjectScalar, { description: 'The caller\'s metadata ({} when none).' }) metadata!: Record<string, unknown>;
}

export const TransactionConnection = connectionType('Transaction', TransactionType);

/** A wallet's recent transactions (Wallet.transactions): keyset-paged, newest first; `totalCount` costs one batched statement, only when asked. */
export const RecentTransactionConnection = connectionType('Transaction', TransactionType, 'RecentTransactionConnection');

@ObjectType('Balance', { simpleResolvers: true, description: "A wallet's balance in one currency of its project (zero included)." })
export class BalanceType {
  @Field({ description: 'The wallet address.' }) account!: string;
  @Field({ description: 'The asset symbol.' }) currency!: string;
  @Field(() => ID) assetId!: string;
  @Field(() => DecimalScalar, { description: 'The posted balance, major units, as a decimal string.' }) balance!: string;
  @Field(() => DecimalScalar, { nullable: true, description: "Sum of the wallet's pending, unexpired holds as sender in this currency." }) held!: string | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'balance − held: what transfers, holds and reversals may spend.' }) available!: string | null;
}

@ObjectType('TransactionHistory', { simpleResolvers: true, description: "A wallet's balance in one currency and its transactions in it, newest first (GET /transactions)." })
export class TransactionHistoryType extends TransactionConnection {
  @Field(() => BalanceType) balance!: BalanceType;
}
