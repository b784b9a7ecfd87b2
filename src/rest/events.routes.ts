import { z } from 'zod';
import { EVENT_TYPES, type LedgerEventView } from '../domain/events/event.types.js';
import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { crossingJson, CrossingBody } from './balance-monitors.routes.js';
import { holdJson, HoldBody } from './holds.routes.js';
import { transactionJson } from './presenters.js';
import { ProjectIdQuery, afterSeq, queryInt, TransactionBody } from './schemas.js';
import { WalletBody, walletJson } from './wallets.schemas.js';

const EventListQuery = z.strictObject({
  projectId: ProjectIdQuery,
  after: afterSeq('events'),
  limit: queryInt(1, 100).default(20),
});

export const EventBody = z
  .object({
    id: z.string().meta({ description: 'Also the `webhook-id` of its outbound deliveries.' }),
    seq: z.number().int().meta({ description: "Increases in commit order within the project." }),
    type: z.enum(EVENT_TYPES),
    projectId: z.number().int(),
    data: z.union([TransactionBody, HoldBody, WalletBody, CrossingBody]).meta({ description: 'The resource as REST shows it: a transaction (the sender\'s balance), a hold, a wallet without balances, or a balance crossing.' }),
    created_at: z.string(),
  })
  .meta({ id: 'Event' });

/** The bare resource an event carries, as REST shows it (CONTRACT §16). */
export function eventData(event: LedgerEventView) {
  switch (event.subject.kind) {
    case 'transaction':
      return transactionJson(event.subject.transaction);
    case 'hold':
      return holdJson(event.subject.hold);
    case 'wallet':
      return walletJson(event.subject.wallet);
    case 'crossing':
      return crossingJson(event.subject.crossing);
  }
}

export function eventJson(event: LedgerEventView) {
  return { id: event.id, seq: Number(event.seq), type: event.type, projectId: event.projectId, data: eventData(event), created_at: event.createdAt.toISOString() };
}

export function eventRoutes({ events }: Services): Route[] {
  return [
    route({
      method: 'GET',
      path: '/events',
      auth: 'api_key',
      query: EventListQuery,
      doc: {
        operationId: 'listEvents',
        summary: "A project's events (the outbox), oldest first after `after`",
        tag: 'events',
        response: {
          status: 200,
          schema: z.object({
            events: z.array(EventBody),
            pagination: z.object({ limit: z.number().int(), after: z.number().int(), nextAfter: z.number().int(), hasMore: z.boolean() }),
          }),
        },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, query }) => {
        const page = await events.list(principal, query);
        return {
          status: 200,
          body: { events: page.events.map(eventJson), pagination: { limit: query.limit, after: Number(page.after), nextAfter: Number(page.nextAfter), hasMore: page.hasMore } },
        };
      },
    }),
  ];
}
