import { Field, ID, InputType, Int } from 'type-graphql';

@InputType('CreateAssetInput')
export class CreateAssetInput {
  @Field(() => ID) projectId!: string;
  @Field({ description: '1–200 characters.' }) name!: string;
  @Field({ description: '1–12 of A–Z 0–9 _ -, unique within the project.' }) symbol!: string;
  @Field(() => Int, { description: '0–18.' }) fractions!: number;
}

@InputType('UpdateAssetInput')
export class UpdateAssetInput {
  @Field(() => ID, { nullable: true, description: "Optional; when given, the asset's project (else not_found)." }) projectId?: string | null;
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true, description: 'Fixed once the asset has transactions (conflict).' }) symbol?: string;
}
