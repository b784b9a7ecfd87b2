import { Field, ID, InputType, Int } from 'type-graphql';

@InputType('CreateAssetInput', { description: 'A new currency of a project.' })
export class CreateAssetInput {
  @Field(() => ID, { description: 'One of your projects (else `not_found`).' }) projectId!: string;
  @Field({ description: 'Display name, 1–200 characters.' }) name!: string;
  @Field({ description: 'The currency code used as `currency` elsewhere: 1–12 of A–Z 0–9 _ -, unique within the project (a duplicate: `conflict`).' }) symbol!: string;
  @Field(() => Int, { description: 'Decimal places of amounts, 0–18 (2: amounts like "12.50"). Fixed once created.' }) fractions!: number;
  @Field(() => Int, { nullable: true, description: 'Seconds a credit to a customer wallet lives before its remaining points expire, 1–315360000; absent or null: never expires.' })
  expiresAfterSeconds?: number | null;
}

@InputType('UpdateAssetInput', { description: "Changes to an asset: a field absent (or null, except `expiresAfterSeconds`) stays as it is." })
export class UpdateAssetInput {
  @Field(() => ID, { nullable: true, description: "When given, it must be the asset's project (else `not_found`)." }) projectId?: string | null;
  @Field({ nullable: true, description: 'A new display name, 1–200 characters.' }) name?: string;
  @Field({ nullable: true, description: 'A new symbol (same rules as on creation); refused with `conflict` once the asset has transactions, or when another asset of the project has it.' }) symbol?: string;
  @Field(() => Int, {
    nullable: true,
    description: 'Seconds a credit to a customer wallet lives, 1–315360000; an explicit null means never (unlike other fields, null is not "unchanged"). Applies to credits posted after the change.',
  })
  expiresAfterSeconds?: number | null;
}
