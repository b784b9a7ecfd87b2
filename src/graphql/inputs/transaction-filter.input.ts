import { Field, ID, InputType } from 'type-graphql';
import { DateTimeScalar, DecimalScalar } from '../scalars.js';

/** One `metadata.<key>=<text>` filter of REST search (CONTRACT §21). */
@InputType('MetadataPair', { description: "A metadata condition: the transaction's top-level metadata value for `key` is the string `value`, or the number or boolean whose JSON text it is." })
export class MetadataPairInput {
  @Field({ description: 'A top-level metadata key (1–128 characters).' }) key!: string;
  @Field({ description: 'The text the value must be (or whose JSON text a number or boolean value must be), at most 1024 characters.' }) value!: string;
}

/**
 * The filters of GET /transactions/search, combined with AND. Checked by the domain
 * (TransactionSearchService), with the same errors as REST: this type only carries them.
 */
@InputType('TransactionFilter', { description: 'Filters of Project.transactions, combined with AND (the filters of GET /transactions/search).' })
export class TransactionFilterInput {
  @Field(() => String, { nullable: true, description: 'A wallet id or address of the project, on either side; `balance` is then its own.' })
  walletId?: string | null;
  @Field(() => String, { nullable: true, description: 'The sender: a wallet id or address of the project, or "@mint" (seeds).' })
  from?: string | null;
  @Field(() => String, { nullable: true, description: 'The receiver: a wallet id or address of the project, "@expired" (expiries) or "@mint" (reversed seeds).' })
  to?: string | null;
  @Field(() => String, { nullable: true, description: 'An asset symbol of the project (default: every currency).' })
  currency?: string | null;
  @Field(() => DecimalScalar, { nullable: true, description: "Inclusive lower bound, major units; at most the currency's decimals (18 without `currency`)." })
  minAmount?: string | number | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'Inclusive upper bound, major units.' })
  maxAmount?: string | number | null;
  @Field(() => DateTimeScalar, { nullable: true, description: '`date` ≥ since.' })
  since?: Date | null;
  @Field(() => DateTimeScalar, { nullable: true, description: '`date` < until.' })
  until?: Date | null;
  @Field(() => String, { nullable: true, description: 'The exact reference.' })
  reference?: string | null;
  @Field(() => String, { nullable: true, description: 'References starting with this text, taken literally (`%` and `_` are no wildcards).' })
  referencePrefix?: string | null;
  @Field(() => ID, { nullable: true, description: 'The reversals of this transaction id.' })
  reverses?: string | null;
  @Field(() => [MetadataPairInput], { nullable: true, description: 'Metadata conditions, every one of which must hold.' })
  metadata?: MetadataPairInput[] | null;
}
