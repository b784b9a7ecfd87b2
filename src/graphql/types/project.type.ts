import { Directive, Field, Float, ID, ObjectType } from 'type-graphql';
import { DateTimeScalar, JSONObjectScalar } from '../scalars.js';
import { connectionType } from './connection.js';

/** Resolves from the domain's ProjectView; relations (asset, assets, wallets) are in ProjectResolver. */
@ObjectType('Project', {
  simpleResolvers: true,
  description: "A project of the caller: a program with its own currencies (assets), wallets and transactions. Money moves only between wallets of one project.",
})
@Directive('@key(fields: "id")')
export class ProjectType {
  @Field(() => ID, { description: "The project's id: a positive integer (as an ID string)." }) id!: number;
  @Field({ description: 'Display name, 1–200 characters.' }) name!: string;
  @Field({ description: 'The kind of program: always "loyalty".' }) type!: string;
  @Field(() => Float, { description: 'Points per unit of fiat money, > 0: a webhook reward given as `fiatAmount` earns fiatAmount × exchangeRate points (rounded down to the asset\'s decimals).' })
  exchangeRate!: number;
  @Field({ description: 'Whether webhook rewards may be given in fiat money (`fiatAmount`) and converted with `exchangeRate`.' }) supportExchangeRate!: boolean;
  @Field(() => JSONObjectScalar, { description: "The caller's metadata ({} when none)." }) metadata!: Record<string, unknown>;
  @Field(() => ID, { nullable: true, description: 'The id of the primary asset (own or shared from another of your projects); null until the project has one.' })
  assetId!: string | null;
  @Field({ name: 'owner', simple: false, description: 'The user id that owns the project: the owner of the API key that created it.' }) ownerId!: string;
  @Field(() => DateTimeScalar, { description: 'When the project was created.' }) createdAt!: Date;
  @Field(() => DateTimeScalar, { description: 'When the project was last changed (its creation, if never).' }) updatedAt!: Date;
}

export const ProjectConnection = connectionType('Project', ProjectType, 'ProjectConnection', 'A page of your projects, oldest first (creation order).');
