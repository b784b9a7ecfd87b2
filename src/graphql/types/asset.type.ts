import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../scalars.js';
import { connectionType } from './connection.js';

/** Resolves from the domain's AssetView; `project` is in AssetResolver. */
@ObjectType('Asset', {
  simpleResolvers: true,
  description: "A currency of a project (points, credits, coins): its symbol names it in transactions and balances, its `fractions` say how amounts are written. A project's first asset becomes its primary one.",
})
@Directive('@key(fields: "id")')
export class AssetType {
  @Field(() => ID, { description: "The asset's id (a UUID)." }) id!: string;
  @Field(() => ID, { description: 'The id of the project the asset belongs to.' }) projectId!: number;
  @Field({ description: 'Display name, 1–200 characters.' }) name!: string;
  @Field({ description: 'The code that names the currency in transactions and balances (`currency`): 1–12 of A–Z 0–9 _ -, unique within the project.' }) symbol!: string;
  @Field(() => Int, { description: 'Decimal places of amounts, 0–18: an amount has at most this many digits after the point (2: "12.50" is fine, "12.505" is refused).' }) fractions!: number;
  @Field(() => Int, { nullable: true, description: 'Seconds a credit to a customer wallet lives before its remaining points expire (leave to @expired); null: never. A change applies to credits posted after it.' })
  expiresAfterSeconds!: number | null;
  @Field({ name: 'owner', simple: false, description: "The user id that owns the asset (its project's owner, the owner of the API key that created it)." }) ownerId!: string;
  @Field(() => DateTimeScalar, { description: 'When the asset was created.' }) createdAt!: Date;
  @Field(() => DateTimeScalar, { description: 'When the asset was last changed (its creation, if never).' }) updatedAt!: Date;
}

export const AssetConnection = connectionType('Asset', AssetType, 'AssetConnection', 'A page of assets, oldest first (creation order).');

@ObjectType('DeleteAssetPayload', { simpleResolvers: true, description: 'The answer of deleteAsset.' })
export class DeleteAssetPayload {
  @Field(() => ID, { description: "The deleted asset's id." }) id!: string;
  @Field({ description: 'Always true: a refused deletion is an error instead.' }) deleted!: boolean;
}
