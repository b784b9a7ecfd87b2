import { Field, ID, ObjectType } from 'type-graphql';
import { DateTimeScalar, JSONObjectScalar } from '../scalars.js';
import { connectionType } from './connection.js';

@ObjectType('WebhookEvent', { simpleResolvers: true, description: 'A stored webhook call, refused flows included (success false, message naming the error code).' })
export class WebhookEventType {
  @Field(() => ID) id!: string;
  @Field(() => ID) projectId!: number;
  @Field() flowId!: string;
  @Field(() => JSONObjectScalar) values!: Record<string, unknown>;
  @Field() success!: boolean;
  @Field() message!: string;
  @Field(() => ID, { nullable: true, description: 'The transaction a reward or redeem posted.' }) transactionId!: string | null;
  @Field(() => DateTimeScalar) receivedAt!: Date;
}

export const WebhookEventConnection = connectionType('WebhookEvent', WebhookEventType);

@ObjectType('WebhookResult', { simpleResolvers: true })
export class WebhookResultType {
  @Field() success!: boolean;
  @Field() message!: string;
}
