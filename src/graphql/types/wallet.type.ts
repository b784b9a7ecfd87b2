import { Directive, Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeScalar } from '../scalars.js';
import { connectionType } from './connection.js';

/** Enum values map to the domain's lowercase strings (REST's `customer`, `active`, …). */
export enum WalletTypeEnum {
  CUSTOMER = 'customer',
  SYSTEM = 'system',
}
registerEnumType(WalletTypeEnum, {
  name: 'WalletType',
  description: "A wallet's kind, fixed at creation; each counts against its own plan quota.",
  valuesConfig: {
    CUSTOMER: { description: "A customer's wallet: earns and spends; credits of an expiring asset expire." },
    SYSTEM: { description: "The program's own wallet: the only kind `seed` mints into; its funds never expire." },
  },
});

export enum WalletStatusEnum {
  ACTIVE = 'active',
  SUSPENDED = 'suspended',
  CLOSED = 'closed',
}
registerEnumType(WalletStatusEnum, {
  name: 'WalletStatus',
  description: 'Whether a wallet may move money: ACTIVE ⇄ SUSPENDED; either → CLOSED (only with every balance zero and no pending hold); CLOSED is final.',
  valuesConfig: {
    ACTIVE: { description: 'Sends and receives. New wallets are active.' },
    SUSPENDED: { description: 'Neither sends nor receives (`wallet_inactive`) until made ACTIVE again.' },
    CLOSED: { description: 'Neither sends nor receives, for good.' },
  },
});

/** Resolves from the domain's WalletView; project, balances and transactions are in WalletResolver. */
@ObjectType('Wallet', { simpleResolvers: true, description: 'A wallet of a project, holding a balance in each of its currencies: a customer\'s or the program\'s own (system).' })
@Directive('@key(fields: "id")')
export class WalletType {
  @Field(() => ID, { description: "The wallet's id (a UUID)." }) id!: string;
  @Field(() => ID, { description: 'The id of the project the wallet belongs to.' }) projectId!: number;
  @Field({ description: "The wallet's address, unique within its project: what transactions show as `from` and `to`, and what mutations accept in place of the id." }) address!: string;
  @Field(() => WalletTypeEnum, { description: 'Customer or system wallet.' }) type!: WalletTypeEnum;
  @Field(() => WalletStatusEnum, { description: 'Whether the wallet may send and receive.' }) status!: WalletStatusEnum;
  @Field(() => DateTimeScalar, { description: 'When the wallet was created: the earliest `asOf` it can be read at.' }) createdAt!: Date;
  @Field(() => DateTimeScalar, { description: 'When the wallet last changed status (its creation, if never).' }) updatedAt!: Date;
}

export const WalletConnection = connectionType('Wallet', WalletType, 'WalletConnection', 'A page of wallets, oldest first (creation order).');
