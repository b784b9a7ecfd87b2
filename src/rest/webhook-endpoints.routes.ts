import { z } from 'zod';
import { EventTypesRule, WebhookUrlRule } from '../domain/webhook-endpoints/webhook-endpoint.rules.js';
import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { pagination, PaginationBody } from '../json/page.json.js';
import { CreatedEndpointBody, createdWebhookEndpointJson, WebhookDeliveryBody, webhookDeliveryJson, WebhookEndpointBody, webhookEndpointJson } from '../json/webhook-endpoint.json.js';
import { PageQuery, ProjectId, ProjectIdQuery, Uuid } from './schemas.js';

const CreateEndpointBody = z.strictObject({
  projectId: ProjectId,
  url: WebhookUrlRule.meta({ description: 'http(s); loopback and private addresses are refused unless LEDGER_WEBHOOK_ALLOW_PRIVATE=true' }),
  types: EventTypesRule.optional().meta({ description: 'The event types to receive; absent: all seven' }),
}).meta({ id: 'CreateWebhookEndpointRequest' });
const EndpointIdParams = z.strictObject({ id: Uuid });
const EndpointListQuery = z.strictObject({ projectId: ProjectIdQuery, ...PageQuery });
const DeliveryListQuery = z.strictObject(PageQuery);

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
      handler: async ({ principal, body }) => ({ status: 201, body: createdWebhookEndpointJson(await webhookEndpoints.create(principal, body)) }),
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
