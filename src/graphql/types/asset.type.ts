import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../scalars.js';
import { connectionType } from './connection.js';

/** Resolves from the domain's AssetView; `project` is in AssetResolver. */
@ObjectType('Asset', { simpleResolvers: true, description: 'A currency of a project.' })
@Directive('@key(fields: "id")')
export class AssetType {
  @Field(() => ID) id!: string;
  @Field(() => ID) projectId!: number;
  @Field() name!: string;
  @Field() symbol!: string;
  @Field(() => Int, { description: 'Decimal places: one major unit is 10^fractions minor units.' }) fractions!: number;
  @Field(() => Int, { nullable: true, description: 'Seconds a credit to a customer wallet lives before its points expire; null: never.' })
  expiresAfterSeconds!: number | null;
  @Field({ name: 'owner', simple: false, description: 'The owner (user id) of the asset.' }) ownerId!: string;
  @Field(() => DateTimeScalar) createdAt!: Date;
  @Field(() => DateTimeScalar) updatedAt!: Date;
}

export const AssetConnection = connectionType('Asset', AssetType);

@ObjectType('DeleteAssetPayload', { simpleResolvers: true })
export class DeleteAssetPayload {
  @Field(() => ID) id!: string;
  @Field() deleted!: boolean;
}
