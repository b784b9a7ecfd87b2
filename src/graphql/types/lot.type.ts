import { Field, ObjectType } from 'type-graphql';
import { DateTimeScalar, DecimalScalar } from '../scalars.js';

/** Resolves from a LotModel (presenters.ts). */
@ObjectType('Lot', { simpleResolvers: true, description: 'Points credited together to a customer wallet and expiring together (CONTRACT §15).' })
export class LotType {
  @Field(() => DecimalScalar, { description: 'Major units credited.' }) amount!: string;
  @Field(() => DecimalScalar, { description: 'Major units left, points reserved by pending holds included.' }) remaining!: string;
  @Field(() => DateTimeScalar) expiresAt!: Date;
  @Field(() => DateTimeScalar) createdAt!: Date;
}
