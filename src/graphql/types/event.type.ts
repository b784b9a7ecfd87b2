import { Field, Float, ID, ObjectType } from 'type-graphql';
import { DateTimeScalar, JSONScalar } from '../scalars.js';
import { connectionType } from './connection.js';

/** GET /events' event (CONTRACT §16); resolvers in src/graphql/resolvers/event.resolver.ts. */
@ObjectType('LedgerEvent', {
  description: 'A change committed in a project (a posting, a hold, a wallet status change, an expiry), recorded in the same database transaction as the change itself. The same event feeds `events`, `ledgerEvents` and outbound webhooks.',
})
export class LedgerEventType {
  @Field(() => ID, { description: "Also the `webhook-id` of its outbound deliveries." }) id!: string;
  @Field(() => Float, { description: 'Position of the event in its project: increases in commit order, with no reuse. An integer, typed Float because it may pass 2³¹.' }) seq!: number;
  @Field(() => String, { description: 'What happened: transaction.posted, hold.created, hold.captured, hold.voided, hold.expired, wallet.status_changed, points.expired, balance.threshold_crossed (a balance monitor crossed) or hold.maturity_refused (a maturing hold could not capture itself; `data` is {hold, code}). The data of a hold.captured carries `matured`.' }) type!: string;
  @Field(() => ID, { description: 'The id of the project the change happened in.' }) projectId!: number;
  @Field(() => JSONScalar, {
    description:
      'The changed resource as the REST API shows it (snake_case timestamps, amounts as JSON numbers of major units): a transaction with its sender\'s resulting balance (transaction.posted, points.expired), a hold (hold.*), a wallet without its balances (wallet.status_changed), or a monitor crossing with the values before and after (balance.threshold_crossed).',
  })
  data!: unknown;
  @Field(() => DateTimeScalar, { description: 'When the change was committed.' }) createdAt!: Date;
}

export const LedgerEventConnection = connectionType('LedgerEvent', LedgerEventType, 'LedgerEventConnection', 'A page of a project\'s events, oldest first (increasing `seq`).');
