import { Field, ObjectType } from 'type-graphql';
import { DateTimeScalar, DecimalScalar } from '../scalars.js';

/** Resolves from a LotModel (presenters.ts). */
@ObjectType('Lot', {
  simpleResolvers: true,
  description:
    "Points of an expiring asset credited together to a customer wallet, which expire together. A debit spends the lot that expires first first; what is left at `expiresAt` leaves the wallet in a transaction to @expired.",
})
export class LotType {
  @Field(() => DecimalScalar, { description: 'The credit, in major units.' }) amount!: string;
  @Field(() => DecimalScalar, { description: 'What is left of it, in major units (points reserved by pending holds still count as left).' }) remaining!: string;
  @Field(() => DateTimeScalar, { description: 'When the remaining points expire.' }) expiresAt!: Date;
  @Field(() => DateTimeScalar, { description: 'When the credit was posted.' }) createdAt!: Date;
}
