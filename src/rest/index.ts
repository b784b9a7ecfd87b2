import { route, type Route } from '../http/route.js';
import type { GraphQLEndpoint } from '../graphql/apollo.js';
import { graphqlRefusal } from '../graphql/errors.js';
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
import { WEBHOOK_DOCS } from './webhook-payloads.js';

/** The REST routes, each documented in /openapi.json. */
export function restRoutes(services: Services): Route[] {
  return [...systemRoutes(services), ...adminRoutes(services), ...transactionRoutes(services), ...transactionSearchRoutes(services), ...webhookRoutes(services), ...projectRoutes(services), ...assetRoutes(services), ...walletRoutes(services), ...holdRoutes(services), ...lotRoutes(services), ...eventRoutes(services), ...webhookEndpointRoutes(services), ...limitRoutes(services)];
}

/**
 * /openapi.json without a running service (`npm run client:generate`). The document reads what
 * the routes declare and runs no handler, and the route factories only keep their services for
 * the handlers: none is needed here.
 */
export function openApiDocument(): Record<string, unknown> {
  return buildOpenApi(restRoutes({} as Services), WEBHOOK_DOCS);
}

/** Every HTTP route: the REST compatibility interface, /graphql and /openapi.json. */
export function allRoutes(services: Services, graphql: GraphQLEndpoint): Route[] {
  const rest = restRoutes(services);
  const graphqlHandler: Route['handler'] = ({ req, body, principal, requestId, log }) => graphql.handle(req, body, principal, requestId, log);
  // built at the first request, not at start-up: converting every schema costs 100–200 ms of CPU
  let openapi: Record<string, unknown> | undefined;
  return [
    ...rest,
    route({ method: 'POST', path: '/graphql', auth: 'api_key', rawBody: true, refusal: graphqlRefusal, handler: graphqlHandler }),
    route({ method: 'GET', path: '/graphql', auth: 'api_key', refusal: graphqlRefusal, handler: graphqlHandler }),
    route({ method: 'GET', path: '/openapi.json', auth: 'none', handler: async () => ({ status: 200, body: (openapi ??= buildOpenApi(rest, WEBHOOK_DOCS)) }) }),
  ];
}
