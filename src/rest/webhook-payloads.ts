import { z } from 'zod';
import { EVENT_TYPES, type EventType } from '../domain/events/event.types.js';
import type { EventRepository } from '../domain/events/event.repository.js';
import type { EventService } from '../domain/events/event.service.js';
import type { PayloadRenderer } from '../domain/webhook-endpoints/delivery-worker.js';
import { eventData } from './events.routes.js';
import { HoldBody } from './holds.routes.js';
import type { WebhookDoc } from './openapi.js';
import { TransactionBody } from './schemas.js';
import { WalletBody } from './wallets.schemas.js';

/**
 * The outbound webhook body (CONTRACT §16): `{id, type, created_at, data}`, `data` being the
 * resource as REST shows it, the same as `GET /events` carries (one presenter for both).
 */
export function webhookPayloads(repository: EventRepository, events: EventService): PayloadRenderer {
  return async (eventIds) => {
    const views = await events.render(await repository.byIds(eventIds));
    return new Map(views.map((event) => [event.id, { id: event.id, type: event.type, created_at: event.createdAt.toISOString(), data: eventData(event) }]));
  };
}

/** Each event type's `data` as `eventData` renders it; keyed by every type, so a new type does not compile until it is documented here. */
const EVENT_DATA: Record<EventType, { data: z.ZodType; summary: string }> = {
  'transaction.posted': { data: TransactionBody, summary: 'A transaction was posted (`data`: the transaction with the sender’s balance)' },
  'hold.created': { data: HoldBody, summary: 'A hold was created' },
  'hold.captured': { data: HoldBody, summary: 'A hold was captured' },
  'hold.voided': { data: HoldBody, summary: 'A hold was voided' },
  'hold.expired': { data: HoldBody, summary: 'A pending hold expired' },
  'wallet.status_changed': { data: WalletBody, summary: 'A wallet’s status changed (`data`: the wallet without balances)' },
  'points.expired': { data: TransactionBody, summary: 'Points expired: the expiry’s transaction to @expired' },
};

/** The Standard Webhooks headers of every attempt (webhook-signature.ts `signatureHeaders`). */
const SIGNATURE_HEADERS: WebhookDoc['headers'] = [
  { name: 'webhook-id', description: 'The event id, the same on every attempt: drop duplicates by it.', schema: { type: 'string' } },
  { name: 'webhook-timestamp', description: 'Unix seconds of this attempt.', schema: { type: 'string', pattern: '^[0-9]+$' } },
  {
    name: 'webhook-signature',
    description: '`v1,` + base64 HMAC-SHA256 of `webhook-id.webhook-timestamp.body`, keyed with the base64-decoded part of the endpoint secret after `whsec_`.',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}$' },
  },
];

const pascal = (type: string) => type.replace(/(^|[._])([a-z])/g, (_, _separator, letter: string) => letter.toUpperCase());

/** The outbound webhook bodies of OpenAPI's `webhooks`: one per event type, with the headers they come with. */
export const WEBHOOK_DOCS: WebhookDoc[] = EVENT_TYPES.map((type) => ({
  name: type,
  operationId: `${pascal(type).replace(/^./, (first) => first.toLowerCase())}Webhook`,
  summary: EVENT_DATA[type].summary,
  body: z
    .object({
      id: z.string().meta({ description: 'The event id (also `webhook-id`).' }),
      type: z.literal(type),
      created_at: z.string(),
      data: EVENT_DATA[type].data,
    })
    .meta({ id: `${pascal(type)}Webhook` }),
  headers: SIGNATURE_HEADERS,
  answer: 'Any 2xx acknowledges the delivery; any other status, or no answer within 10 s, is a failed attempt, retried with backoff.',
}));
