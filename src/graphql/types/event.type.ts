import { Field, Float, ID, ObjectType } from 'type-graphql';
import { DateTimeScalar, JSONScalar } from '../scalars.js';
import { connectionType } from './connection.js';

/** GET /events' event (CONTRACT §16); resolvers in src/graphql/resolvers/event.resolver.ts. */
@ObjectType('LedgerEvent', { description: 'A committed change (the outbox): `data` is the resource as REST shows it.' })
export class LedgerEventType {
  @Field(() => ID, { description: "Also the `webhook-id` of its outbound deliveries." }) id!: string;
  @Field(() => Float, { description: 'Increases in commit order within the project (an integer; Float because it may pass 2³¹).' }) seq!: number;
  @Field(() => String, { description: 'transaction.posted, hold.created, hold.captured, hold.voided, hold.expired, wallet.status_changed, points.expired or balance.threshold_crossed.' }) type!: string;
  @Field(() => ID) projectId!: number;
  @Field(() => JSONScalar, { description: "A transaction (the sender's balance), a hold, a wallet without balances, or a balance crossing, as REST shows it." }) data!: unknown;
  @Field(() => DateTimeScalar) createdAt!: Date;
}

export const LedgerEventConnection = connectionType('LedgerEvent', LedgerEventType);
