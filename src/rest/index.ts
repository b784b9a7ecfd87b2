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
import { balanceMonitorRoutes } from './balance-monitors.routes.js';

/** Every HTTP route: the REST compatibility interface, /graphql and /openapi.json. */
export function allRoutes(services: Services, graphql: GraphQLEndpoint): Route[] {
  const rest: Route[] = [...systemRoutes(services), ...adminRoutes(services), ...transactionRoutes(services), ...transactionSearchRoutes(services), ...webhookRoutes(services), ...projectRoutes(services), ...assetRoutes(services), ...walletRoutes(services), ...holdRoutes(services), ...lotRoutes(services), ...eventRoutes(services), ...webhookEndpointRoutes(services), ...balanceMonitorRoutes(services)];
  const graphqlHandler: Route['handler'] = ({ req, body, principal, requestId, log }) => graphql.handle(req, body, principal, requestId, log);
  const openapi = buildOpenApi(rest);
  return [
    ...rest,
    route({ method: 'POST', path: '/graphql', auth: 'api_key', rawBody: true, refusal: graphqlRefusal, handler: graphqlHandler }),
    route({ method: 'GET', path: '/graphql', auth: 'api_key', refusal: graphqlRefusal, handler: graphqlHandler }),
    route({ method: 'GET', path: '/openapi.json', auth: 'none', handler: async () => ({ status: 200, body: openapi }) }),
  ];
}
