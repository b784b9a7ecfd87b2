import { Field, Float, ID, InputType } from 'type-graphql';
import { JSONObjectScalar } from '../scalars.js';

/** POST /projects; the service applies the defaults and rules. */
@InputType('CreateProjectInput', { description: 'A new project; absent or null fields take their defaults.' })
export class CreateProjectInput {
  @Field({ description: 'Display name, 1–200 characters after trimming.' }) name!: string;
  @Field({ nullable: true, description: 'The kind of program: only "loyalty" (the default).' }) type?: string;
  @Field(() => Float, { nullable: true, description: 'Points per unit of fiat money for webhook rewards given as `fiatAmount`, > 0; default 1.' }) exchangeRate?: number;
  @Field({ nullable: true, description: 'Whether webhook rewards may be given as `fiatAmount`; default false.' }) supportExchangeRate?: boolean;
  @Field(() => JSONObjectScalar, { nullable: true, description: 'Any JSON object of at most 16 KiB serialised; default {}.' }) metadata?: Record<string, unknown>;
  @Field(() => ID, { nullable: true, description: "An asset of another of your projects, shared as this project's primary currency (else `not_found`); absent: the project's first own asset becomes its primary one." })
  assetId?: string | null;
}
