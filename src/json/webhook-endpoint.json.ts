import { z } from 'zod';
import { EVENT_TYPES, type CreatedWebhookEndpoint, type WebhookDeliveryView, type WebhookEndpointView } from '../domain/webhook-endpoints/webhook-endpoint.types.js';

/** A webhook endpoint and its delivery attempts (CONTRACT §16). */
const endpointFields = {
  id: z.string(),
  projectId: z.number().int(),
  url: z.string().meta({ description: 'As the WHATWG URL parser normalises it' }),
  types: z.array(z.enum(EVENT_TYPES)),
  created_at: z.string(),
};
export const WebhookEndpointBody = z.object(endpointFields).meta({ id: 'WebhookEndpoint' });
export const CreatedEndpointBody = z
  .object({ ...endpointFields, secret: z.string().meta({ description: '`whsec_` + base64 of 32 random bytes; shown only here' }) })
  .meta({ id: 'CreatedWebhookEndpoint' });
export const WebhookDeliveryBody = z
  .object({
    id: z.string(),
    eventId: z.string().meta({ description: 'The event id, sent as `webhook-id`' }),
    attempt: z.number().int().meta({ description: 'From 1 per event' }),
    status: z.enum(['succeeded', 'failed']),
    responseStatus: z.number().int().nullable().meta({ description: "The receiver's HTTP status, or null when it did not answer" }),
    error: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'WebhookDelivery' });

export function webhookEndpointJson(endpoint: WebhookEndpointView) {
  return { id: endpoint.id, projectId: endpoint.projectId, url: endpoint.url, types: endpoint.types, created_at: endpoint.createdAt.toISOString() };
}

export const createdWebhookEndpointJson = (endpoint: CreatedWebhookEndpoint) => ({ ...webhookEndpointJson(endpoint), secret: endpoint.secret });

export function webhookDeliveryJson(delivery: WebhookDeliveryView) {
  return {
    id: delivery.id,
    eventId: delivery.eventId,
    attempt: delivery.attempt,
    status: delivery.status,
    responseStatus: delivery.responseStatus,
    error: delivery.error,
    created_at: delivery.createdAt.toISOString(),
  };
}
