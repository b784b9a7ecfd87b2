import type { EventType } from '../outbox/event-type.js';

export { EVENT_TYPES } from '../outbox/event-type.js';
/** An endpoint subscribes to some of the seven event types of CONTRACT §16. */
export type WebhookEventType = EventType;

/** An outbound webhook endpoint (CONTRACT §16). `types` lists what it receives (all seven when created without `types`). */
export interface WebhookEndpointView {
  id: string;
  projectId: number;
  url: string;
  types: WebhookEventType[];
  createdAt: Date;
}

/** Only the creation answers the secret. */
export interface CreatedWebhookEndpoint extends WebhookEndpointView {
  secret: string;
}

export interface CreateWebhookEndpointInput {
  projectId: number;
  url: string;
  types?: string[] | null;
}

/** One delivery attempt (CONTRACT §16): `attempt` counts from 1 per event. */
export interface WebhookDeliveryView {
  id: string;
  eventId: string;
  attempt: number;
  status: 'succeeded' | 'failed';
  responseStatus: number | null;
  error: string | null;
  createdAt: Date;
}

export interface EndpointListQuery {
  projectId: number;
  page: number;
  limit: number;
}

export interface DeliveryListQuery {
  page: number;
  limit: number;
}
