import { Field, ID, InputType } from 'type-graphql';
import { WalletStatusEnum } from '../types/wallet.type.js';

@InputType('CreateWalletInput', { description: 'A new wallet of a project; it starts ACTIVE with zero balances.' })
export class CreateWalletInput {
  @Field(() => ID, { description: 'One of your projects (else `not_found`).' }) projectId!: string;
  @Field({ nullable: true, description: 'The address, 1–128 of A–Z a–z 0–9 . _ : @ - not starting with @ (reserved for @mint and @expired), unique within the project (taken: `conflict`); generated when absent.' })
  address?: string;
}

@InputType('SetWalletStatusInput', { description: "A wallet's new status." })
export class SetWalletStatusInput {
  @Field(() => ID, { description: "The wallet's project (else `not_found`)." }) projectId!: string;
  @Field(() => WalletStatusEnum, { description: 'The new status; the current one again changes nothing.' }) status!: WalletStatusEnum;
}
