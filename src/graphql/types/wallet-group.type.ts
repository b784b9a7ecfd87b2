import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import { DateTimeScalar, DecimalScalar, JSONObjectScalar } from '../scalars.js';
import { connectionType } from './connection.js';

/** Resolves from a WalletGroupModel (wallet-group.resolver.ts); parent, groups, wallets and balances are field resolvers. */
@ObjectType('WalletGroup', { simpleResolvers: true, description: 'A group of wallets of one project, in a tree at most 8 deep: its balances are summed over every wallet of the group and of its subgroups, at every depth.' })
@Directive('@key(fields: "id")')
export class WalletGroupType {
  @Field(() => ID, { description: "The group's id (a UUID)." }) id!: string;
  @Field(() => ID, { description: 'The id of the project the group belongs to.' }) projectId!: number;
  @Field({ description: "The group's name (1 to 100 characters)." }) name!: string;
  @Field(() => JSONObjectScalar, { nullable: true, description: "The caller's metadata, or null." }) metadata!: Record<string, unknown> | null;
  @Field(() => DateTimeScalar, { description: 'When the group was created.' }) createdAt!: string;
}

export const WalletGroupConnection = connectionType('WalletGroup', WalletGroupType, 'WalletGroupConnection', 'A page of wallet groups, oldest first (creation order).');

@ObjectType('GroupBalance', { simpleResolvers: true, description: "One currency of a group's roll-up: sums over every wallet of its subtree, in major units." })
export class GroupBalanceType {
  @Field({ description: "The asset's symbol." }) currency!: string;
  @Field(() => ID, { description: "The asset's id." }) assetId!: string;
  @Field(() => DecimalScalar, { description: 'The sum of the posted balances.' }) balance!: string;
  @Field(() => DecimalScalar, { nullable: true, description: 'The sum of what pending, unexpired holds reserve; null with `asOf`.' }) held!: string | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'balance − held; null with `asOf`.' }) available!: string | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'The sum of pending credits to the wallets (holds towards them): 0 until pending credits are kept; null with `asOf`.' }) incoming!: string | null;
  @Field(() => Int, { description: 'How many wallets the subtree has.' }) wallets!: number;
}

@ObjectType('DeleteWalletGroupPayload', { simpleResolvers: true, description: 'The answer to deleteWalletGroup.' })
export class DeleteWalletGroupPayload {
  @Field(() => ID, { description: "The deleted group's id." }) id!: string;
  @Field({ description: 'Always true.' }) deleted!: boolean;
}
