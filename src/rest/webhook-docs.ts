import { z } from 'zod';
import { EVENT_TYPES, type EventType } from '../domain/outbox/event-type.js';
import { CrossingBody } from '../json/balance-monitor.json.js';
import { CapturedHoldBody, HoldBody, MaturityRefusalBody } from '../json/hold.json.js';
import { TransactionBody } from '../json/transaction.json.js';
import { WalletBody } from '../json/wallet.json.js';
import type { WebhookDoc } from './openapi.js';

/** Each event type's `data` as `eventData` (src/json/event.json.ts) renders it; keyed by every type, so a new type does not compile until it is documented here. */
const EVENT_DATA: Record<EventType, { data: z.ZodType; summary: string }> = {
  'transaction.posted': { data: TransactionBody, summary: 'A transaction was posted (`data`: the transaction with the sender’s balance)' },
  'hold.created': { data: HoldBody, summary: 'A hold was created' },
  'hold.captured': { data: CapturedHoldBody, summary: 'A hold was captured: by a call (`matured`: false) or by itself at its `matures_at` (`matured`: true)' },
  'hold.voided': { data: HoldBody, summary: 'A hold was voided' },
  'hold.expired': { data: HoldBody, summary: 'A pending hold expired' },
  'wallet.status_changed': { data: WalletBody, summary: 'A wallet’s status changed (`data`: the wallet without balances)' },
  'points.expired': { data: TransactionBody, summary: 'Points expired: the expiry’s transaction to @expired' },
  'hold.maturity_refused': { data: MaturityRefusalBody, summary: 'A maturing hold could not capture itself at its time (`data`: `{hold, code}`); it stays pending and is tried every minute for 24 h, then voided. Written once, at the first refusal' },
  'balance.threshold_crossed': { data: CrossingBody, summary: 'A balance monitor crossed: its condition went from false to true for a wallet (`data`: the monitor, the wallet and the values before and after)' },
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
