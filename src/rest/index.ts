import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { buildOpenApi } from './openapi.js';
import { adminRoutes } from './admin.routes.js';
import { systemRoutes } from './system.routes.js';
import { transactionRoutes } from './transactions.routes.js';
import { transactionSearchRoutes } from './transactions-search.routes.js';
import { webhookRoutes } from './webhook.routes.js';
import { assetRoutes } from './assets.routes.js';
import { projectRoutes } from './projects.routes.js';
import { walletRoutes } from './wallets.routes.js';
import { holdRoutes } from './holds.routes.js';
import { lotRoutes } from './lots.routes.js';
import { eventRoutes } from './events.routes.js';
import { webhookEndpointRoutes } from './webhook-endpoints.routes.js';
import { limitRoutes } from './limits.routes.js';
import { creditLineRoutes } from './credit-lines.routes.js';
import { journalRoutes } from './journal.routes.js';
import { analyticsRoutes } from './analytics.routes.js';
import { balanceMonitorRoutes } from './balance-monitors.routes.js';
import { walletGroupRoutes } from './wallet-groups.routes.js';
import { WEBHOOK_DOCS } from './webhook-docs.js';

/** The REST routes, each documented in /openapi.json. */
export function restRoutes(services: Services): Route[] {
  return [...systemRoutes(services), ...adminRoutes(services), ...transactionRoutes(services), ...transactionSearchRoutes(services), ...webhookRoutes(services), ...projectRoutes(services), ...assetRoutes(services), ...walletRoutes(services), ...holdRoutes(services), ...lotRoutes(services), ...eventRoutes(services), ...webhookEndpointRoutes(services), ...limitRoutes(services), ...creditLineRoutes(services), ...journalRoutes(services), ...analyticsRoutes(services), ...balanceMonitorRoutes(services), ...walletGroupRoutes(services)];
}

/**
 * /openapi.json without a running service (`npm run client:generate`). The document reads what
 * the routes declare and runs no handler, and the route factories only keep their services for
 * the handlers: none is needed here.
 */
export function openApiDocument(): Record<string, unknown> {
  return buildOpenApi(restRoutes({} as Services), WEBHOOK_DOCS);
}

/** GET /openapi.json: the document of the REST routes. */
export function openApiRoute(rest: Route[]): Route {
  // built at the first request, not at start-up: converting every schema costs 100–200 ms of CPU
  let openapi: Record<string, unknown> | undefined;
  return route({ method: 'GET', path: '/openapi.json', auth: 'none', handler: async () => ({ status: 200, body: (openapi ??= buildOpenApi(rest, WEBHOOK_DOCS)) }) });
}
