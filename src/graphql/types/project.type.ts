import { Directive, Field, Float, ID, ObjectType } from 'type-graphql';
import { DateTimeScalar, JSONObjectScalar } from '../scalars.js';
import { connectionType } from './connection.js';

/** Resolves from the domain's ProjectView; relations (asset, assets, wallets) are in ProjectResolver. */
@ObjectType('Project', { simpleResolvers: true, description: 'A project of the caller: its currencies (assets) and wallets.' })
@Directive('@key(fields: "id")')
export class ProjectType {
  @Field(() => ID) id!: number;
  @Field() name!: string;
  @Field({ description: 'Always "loyalty".' }) type!: string;
  @Field(() => Float) exchangeRate!: number;
  @Field() supportExchangeRate!: boolean;
  @Field(() => JSONObjectScalar) metadata!: Record<string, unknown>;
  @Field(() => ID, { nullable: true, description: 'The primary asset (own or shared), null until the project has one.' })
  assetId!: string | null;
  @Field({ name: 'owner', simple: false, description: 'The owner (user id) of the project.' }) ownerId!: string;
  @Field(() => DateTimeScalar) createdAt!: Date;
  @Field(() => DateTimeScalar) updatedAt!: Date;
}

export const ProjectConnection = connectionType('Project', ProjectType);
