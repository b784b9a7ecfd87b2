import { Directive, Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeScalar } from '../scalars.js';
import { connectionType } from './connection.js';

/** Enum values map to the domain's lowercase strings (REST's `customer`, `active`, …). */
export enum WalletTypeEnum {
  CUSTOMER = 'customer',
  SYSTEM = 'system',
}
registerEnumType(WalletTypeEnum, { name: 'WalletType' });

export enum WalletStatusEnum {
  ACTIVE = 'active',
  SUSPENDED = 'suspended',
  CLOSED = 'closed',
}
registerEnumType(WalletStatusEnum, { name: 'WalletStatus', description: 'active ⇄ suspended; either → closed (only with zero balances); closed is final.' });

/** Resolves from the domain's WalletView; project, balances and transactions are in WalletResolver. */
@ObjectType('Wallet', { simpleResolvers: true, description: 'A customer or system wallet of a project.' })
@Directive('@key(fields: "id")')
export class WalletType {
  @Field(() => ID) id!: string;
  @Field(() => ID) projectId!: number;
  @Field() address!: string;
  @Field(() => WalletTypeEnum) type!: WalletTypeEnum;
  @Field(() => WalletStatusEnum) status!: WalletStatusEnum;
  @Field(() => DateTimeScalar) createdAt!: Date;
  @Field(() => DateTimeScalar) updatedAt!: Date;
}

export const WalletConnection = connectionType('Wallet', WalletType);
