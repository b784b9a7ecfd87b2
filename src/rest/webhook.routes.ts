import { z } from 'zod';
import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { FlowIdRule } from '../domain/webhook/webhook.service.js';
import { ProjectId } from './schemas.js';

const WebhookBody = z.strictObject({
  flowId: FlowIdRule,
  projectId: ProjectId,
  values: z.record(z.string(), z.unknown()),
}).meta({ id: 'InboundWebhookRequest' });

export function webhookRoutes({ webhook }: Services): Route[] {
  return [
    route({
      method: 'POST',
      path: '/webhook',
      auth: 'api_key',
      body: WebhookBody,
      doc: {
        operationId: 'receiveInboundWebhook',
        summary: 'Inbound webhook: flows reward and redeem post a transfer; other flows are recorded',
        tag: 'webhook',
        response: { status: 200, schema: z.object({ success: z.boolean(), message: z.string() }) },
        errors: ['not_found', 'insufficient_funds', 'wallet_inactive', 'limit_exceeded', 'conflict'],
      },
      handler: async ({ principal, body }) => ({ status: 200, body: await webhook.handle(principal, body) }),
    }),
  ];
}
