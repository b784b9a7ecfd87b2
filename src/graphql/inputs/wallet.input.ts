import { Field, ID, InputType } from 'type-graphql';
import { WalletStatusEnum } from '../types/wallet.type.js';

@InputType('CreateWalletInput')
export class CreateWalletInput {
  @Field(() => ID) projectId!: string;
  @Field({ nullable: true, description: '1–128 of A–Z a–z 0–9 . _ : @ - (not starting with @), unique within the project; generated when absent.' })
  address?: string;
}

@InputType('SetWalletStatusInput')
export class SetWalletStatusInput {
  @Field(() => ID, { description: "The wallet's project (else not_found)." }) projectId!: string;
  @Field(() => WalletStatusEnum) status!: WalletStatusEnum;
}
