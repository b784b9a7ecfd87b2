import { Directive, Field, ID, ObjectType } from 'type-graphql';
import { DateTimeScalar, DecimalScalar, JSONObjectScalar } from '../scalars.js';
import { connectionType } from './connection.js';

/** Resolves from a TransactionModel (presenters.ts); fromWallet and toWallet are in TransactionResolver. */
@ObjectType('Transaction', {
  simpleResolvers: true,
  description:
    'A posted movement of an amount of one currency from one wallet to another of the same project: a transfer, a seed (from @mint), a capture, a reversal (back to the sender, or to @mint) or an expiry (to @expired). Posted transactions never change, except `reversedAmount`.',
})
@Directive('@key(fields: "id")')
export class TransactionType {
  @Field(() => ID, { description: "The transaction's id (a UUID)." }) id!: string;
  @Field(() => ID, { description: 'The id of the project the transaction belongs to.' }) projectId!: number;
  @Field(() => DecimalScalar, { description: 'The amount moved, in major units, > 0.' }) amount!: string;
  @Field({ description: "The asset's symbol." }) currency!: string;
  @Field({ description: 'The sender\'s wallet address; "@mint" for a seed.' }) from!: string;
  @Field({ description: 'The receiver\'s wallet address; "@mint" for the reversal of a seed, "@expired" for expired points.' }) to!: string;
  @Field(() => DateTimeScalar, { description: 'When it was posted (for an expiry: when the points expired).' }) date!: Date;
  @Field(() => DecimalScalar, {
    nullable: true,
    description:
      "The balance, in major units, right after this transaction, of the wallet whose history lists it (in a history or a wallet's transactions); in a mutation's answer, the sender's (the seeded wallet's for `seed`); null when the transaction is read by id (`transaction(id)`, federation references), where no wallet's side is implied.",
  })
  balance!: string | null;
  @Field(() => ID, { nullable: true, description: 'The id of the original transaction this one reverses; null when it is not a reversal.' }) reverses!: string | null;
  @Field(() => DecimalScalar, { description: 'How much later reversals of this one have sent back so far, in major units ("0" for none); at most `amount`.' }) reversedAmount!: string;
  @Field(() => String, { nullable: true, description: 'The caller\'s reference, unique per project among transactions and holds; null when none was given.' }) reference!: string | null;
  @Field(() => JSONObjectScalar, { description: 'The caller\'s metadata ({} when none was given).' }) metadata!: Record<string, unknown>;
}

export const TransactionConnection = connectionType('Transaction', TransactionType, 'TransactionConnection', 'A page of transactions, newest first.');

/** A wallet's recent transactions (Wallet.transactions): keyset-paged, newest first; `totalCount` costs one batched statement, only when asked. */
export const RecentTransactionConnection = connectionType(
  'Transaction',
  TransactionType,
  'RecentTransactionConnection',
  "A page of a wallet's transactions in every currency, newest first; each `balance` is this wallet's, in that transaction's currency.",
);

@ObjectType('Balance', { simpleResolvers: true, description: "A wallet's balance in one currency of its project (a currency never used by the wallet shows \"0\")." })
export class BalanceType {
  @Field({ description: "The wallet's address." }) account!: string;
  @Field({ description: "The asset's symbol." }) currency!: string;
  @Field(() => ID, { description: "The asset's id." }) assetId!: string;
  @Field(() => DecimalScalar, { description: 'The posted balance, in major units: every credit minus every debit. Below zero only with a credit line (down to −creditLimit).' }) balance!: string;
  @Field(() => DecimalScalar, {
    nullable: true,
    description: "In major units, what the wallet's pending, unexpired holds as sender reserve in this currency; null on a balance read with `asOf` (it describes the present).",
  })
  held!: string | null;
  @Field(() => DecimalScalar, {
    nullable: true,
    description: 'balance − held + creditLimit, in major units: what transfers, new holds and reversals may spend; below zero only when a credit line was lowered below its use. Null on a balance read with `asOf`.',
  })
  available!: string | null;
  @Field(() => DecimalScalar, {
    nullable: true,
    description: 'The credit line in this currency, in major units (0 without one): the balance may go down to −creditLimit (setCreditLine). Null on a balance read with `asOf`.',
  })
  creditLimit!: string | null;
  @Field(() => DecimalScalar, {
    nullable: true,
    description: "In major units, the sum of the pending holds *to* the wallet in this currency (maturing or not): what it may receive; `balance`, `held` and `available` do not count it. Null on a balance read with `asOf`.",
  })
  incoming!: string | null;
}

@ObjectType('TransactionHistory', {
  simpleResolvers: true,
  description: "A wallet's history in one currency: a page of its transactions in it, newest first, each with the wallet's balance right after it, and its balance now (or at `asOf`).",
})
export class TransactionHistoryType extends TransactionConnection {
  @Field(() => BalanceType, { description: "The wallet's balance in this currency: now, or as it was at `asOf` (then `held` and `available` are null)." }) balance!: BalanceType;
}
