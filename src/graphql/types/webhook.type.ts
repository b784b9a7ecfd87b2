import { Field, ID, ObjectType } from 'type-graphql';
import { DateTimeScalar, JSONObjectScalar } from '../scalars.js';
import { connectionType } from './connection.js';

@ObjectType('WebhookEvent', {
  simpleResolvers: true,
  description: 'A call of the inbound webhook (the `webhook` mutation or POST /webhook) as it was recorded: every call that passed validation, refused flows included.',
})
export class WebhookEventType {
  @Field(() => ID, { description: "The recorded call's id." }) id!: string;
  @Field(() => ID, { description: 'The id of the project it was called for.' }) projectId!: number;
  @Field({ description: 'The flow called: "reward", "redeem" or any other name (recorded only).' }) flowId!: string;
  @Field(() => JSONObjectScalar, { description: 'The `values` object of the call, as sent.' }) values!: Record<string, unknown>;
  @Field({ description: 'Whether the flow ran: false when it was refused (nothing was posted).' }) success!: boolean;
  @Field({ description: "The flow's outcome in words; for a refusal, it names the error code (e.g. insufficient_funds)." }) message!: string;
  @Field(() => ID, { nullable: true, description: 'The id of the transaction a successful reward or redeem posted; null otherwise.' }) transactionId!: string | null;
  @Field(() => DateTimeScalar, { description: 'When the call was recorded.' }) receivedAt!: Date;
}

export const WebhookEventConnection = connectionType('WebhookEvent', WebhookEventType, 'WebhookEventConnection', "A page of a project's webhook calls, oldest first.");

@ObjectType('WebhookResult', { simpleResolvers: true, description: 'The answer of the `webhook` mutation for a flow that ran (a refused flow is an error instead, and is recorded all the same).' })
export class WebhookResultType {
  @Field({ description: 'Always true: a refusal is an error instead.' }) success!: boolean;
  @Field({ description: 'What the flow did, in words.' }) message!: string;
}
