import { z } from 'zod';
import { EventTypesRule, WebhookUrlRule } from '../domain/webhook-endpoints/webhook-endpoint.rules.js';
import { EVENT_TYPES, type CreatedWebhookEndpoint, type WebhookDeliveryView, type WebhookEndpointView } from '../domain/webhook-endpoints/webhook-endpoint.types.js';
import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { pagination } from './presenters.js';
import { PageQuery, PaginationBody, ProjectId, ProjectIdQuery, Uuid } from './schemas.js';

const CreateEndpointBody = z.strictObject({
  projectId: ProjectId,
  url: WebhookUrlRule.meta({ description: 'http(s); loopback and private addresses are refused unless LEDGER_WEBHOOK_ALLOW_PRIVATE=true' }),
  types: EventTypesRule.optional().meta({ description: 'The event types to receive; absent: all seven' }),
}).meta({ id: 'CreateWebhookEndpointRequest' });
const EndpointIdParams = z.strictObject({ id: Uuid });
const EndpointListQuery = z.strictObject({ projectId: ProjectIdQuery, ...PageQuery });
const DeliveryListQuery = z.strictObject(PageQuery);

const endpointFields = {
  id: z.string(),
  projectId: z.number().int(),
  url: z.string().meta({ description: 'As the WHATWG URL parser normalises it' }),
  types: z.array(z.enum(EVENT_TYPES)),
  created_at: z.string(),
};
export const WebhookEndpointBody = z.object(endpointFields).meta({ id: 'WebhookEndpoint' });
const CreatedEndpointBody = z
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

const createdJson = (endpoint: CreatedWebhookEndpoint) => ({ ...webhookEndpointJson(endpoint), secret: endpoint.secret });

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

/** Outbound webhook endpoints (CONTRACT §16). */
export function webhookEndpointRoutes({ webhookEndpoints }: Services): Route[] {
  return [
    route({
      method: 'POST',
      path: '/webhook-endpoints',
      auth: 'api_key',
      body: CreateEndpointBody,
      doc: {
        operationId: 'createWebhookEndpoint',
        summary: "Register a URL that receives the project's events committed from now on, signed (Standard Webhooks); the secret is shown only here. At most 20 endpoints per project (403 quota_exceeded)",
        tag: 'webhooks',
        response: { status: 201, schema: CreatedEndpointBody },
        // 403 quota_exceeded: the project has its 20 endpoints (details {quota: "webhook_endpoints", limit: 20})
        errors: ['validation_error', 'quota_exceeded', 'not_found'],
      },
      handler: async ({ principal, body }) => ({ status: 201, body: createdJson(await webhookEndpoints.create(principal, body)) }),
    }),
    route({
      method: 'GET',
      path: '/webhook-endpoints',
      auth: 'api_key',
      query: EndpointListQuery,
      doc: {
        operationId: 'listWebhookEndpoints',
        summary: "A project's webhook endpoints, oldest first (never their secrets)",
        tag: 'webhooks',
        response: { status: 200, schema: z.object({ endpoints: z.array(WebhookEndpointBody), pagination: PaginationBody }) },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, query }) => {
        const page = await webhookEndpoints.list(principal, query);
        return { status: 200, body: { endpoints: page.items.map(webhookEndpointJson), pagination: pagination(query.page, query.limit, page.total) } };
      },
    }),
    route({
      method: 'DELETE',
      path: '/webhook-endpoints/{id}',
      auth: 'api_key',
      params: EndpointIdParams,
      doc: {
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete an endpoint: nothing more is sent to it; its pending deliveries and its log go with it',
        tag: 'webhooks',
        response: { status: 200, schema: z.object({ id: z.string(), deleted: z.literal(true) }) },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, params }) => ({ status: 200, body: await webhookEndpoints.delete(principal, params.id) }),
    }),
    route({
      method: 'GET',
      path: '/webhook-endpoints/{id}/deliveries',
      auth: 'api_key',
      params: EndpointIdParams,
      query: DeliveryListQuery,
      doc: {
        operationId: 'listWebhookDeliveries',
        summary: "The endpoint's delivery attempts, one record per attempt, newest first",
        tag: 'webhooks',
        response: { status: 200, schema: z.object({ deliveries: z.array(WebhookDeliveryBody), pagination: PaginationBody }) },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, params, query }) => {
        const page = await webhookEndpoints.deliveries(principal, params.id, query);
        return { status: 200, body: { deliveries: page.items.map(webhookDeliveryJson), pagination: pagination(query.page, query.limit, page.total) } };
      },
    }),
  ];
}
