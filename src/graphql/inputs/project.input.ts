import { Field, Float, ID, InputType } from 'type-graphql';
import { JSONObjectScalar } from '../scalars.js';

/** POST /projects; the service applies the defaults and rules. */
@InputType('CreateProjectInput')
export class CreateProjectInput {
  @Field({ description: '1–200 characters after trimming.' }) name!: string;
  @Field({ nullable: true, description: 'Only "loyalty" (the default).' }) type?: string;
  @Field(() => Float, { nullable: true, description: '> 0, default 1.' }) exchangeRate?: number;
  @Field({ nullable: true, description: 'Default false.' }) supportExchangeRate?: boolean;
  @Field(() => JSONObjectScalar, { nullable: true, description: 'At most 16 KiB serialised; default {}.' }) metadata?: Record<string, unknown>;
  @Field(() => ID, { nullable: true, description: "An asset of another of your projects, shared as this project's primary currency." })
  assetId?: string | null;
}
