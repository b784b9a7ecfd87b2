import { z } from 'zod';
import { EVENT_TYPES } from '../domain/outbox/event-type.js';
import type { LedgerEventView } from '../domain/events/event.types.js';
import { crossingJson, CrossingBody } from './balance-monitor.json.js';
import { CapturedHoldBody, holdJson, HoldBody, MaturityRefusalBody } from './hold.json.js';
import { transactionJson, TransactionBody } from './transaction.json.js';
import { walletJson, WalletBody } from './wallet.json.js';

/** An event of the outbox (CONTRACT §16), as GET /events lists it; GraphQL and the webhooks carry the same `data`. */
export const EventBody = z
  .object({
    id: z.string().meta({ description: 'Also the `webhook-id` of its outbound deliveries.' }),
    seq: z.number().int().meta({ description: "Increases in commit order within the project." }),
    type: z.enum(EVENT_TYPES),
    projectId: z.number().int(),
    data: z.union([TransactionBody, HoldBody, CapturedHoldBody, MaturityRefusalBody, WalletBody, CrossingBody]).meta({ description: 'The resource as REST shows it: a transaction (the sender\'s balance), a hold (`matured` on hold.captured), a refused maturity `{hold, code}`, a wallet without balances, or a balance crossing.' }),
    created_at: z.string(),
  })
  .meta({ id: 'Event' });

/** The bare resource an event carries, as REST shows it (CONTRACT §16). */
export function eventData(event: LedgerEventView) {
  switch (event.subject.kind) {
    case 'transaction':
      return transactionJson(event.subject.transaction);
    case 'hold': {
      // CONTRACT §26: a refused maturity carries {hold, code}; every capture says whether it matured
      const { hold, matured, code } = event.subject;
      if (code !== undefined) return { hold: holdJson(hold), code };
      return matured === undefined ? holdJson(hold) : { ...holdJson(hold), matured };
    }
    case 'wallet':
      return walletJson(event.subject.wallet);
    case 'crossing':
      return crossingJson(event.subject.crossing);
  }
}

export function eventJson(event: LedgerEventView) {
  return { id: event.id, seq: Number(event.seq), type: event.type, projectId: event.projectId, data: eventData(event), created_at: event.createdAt.toISOString() };
}

/** The outbound webhook body (CONTRACT §16): `{id, type, created_at, data}`, `data` being the same as the event's. */
export function webhookPayloadJson(event: LedgerEventView) {
  return { id: event.id, type: event.type, created_at: event.createdAt.toISOString(), data: eventData(event) };
}
