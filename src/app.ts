import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GraphQLSchema } from 'graphql';
import type { Database } from './db/database.js';
import { createGraphQLEndpoint } from './graphql/apollo.js';
import { preloadJit } from './graphql/jit.js';
import { graphQLLimits } from './graphql/limits/limits.js';
import { graphqlRoutes } from './graphql/routes.js';
import { createHttpServer } from './http/server.js';
import { attachSubscriptionServer, type SubscriptionServer } from './graphql/subscriptions/websocket-server.js';
import { Cors } from './http/cors.js';
import { metricsRoute } from './http/metrics.route.js';
import type { Route } from './http/route.js';
import { webRoutes } from './web/web.routes.js';
import type { Logger } from './logger.js';
import { openApiRoute, restRoutes } from './rest/index.js';
import { createServices, type Services, type WebhookOptions } from './services.js';
import { DEFAULTS } from './config.js';
import type { ExpirySweeperOptions } from './domain/shared/expiry-sweeper.js';

export interface AppOptions {
  db: Database;
  logger: Logger;
  adminToken?: string;
  exposeStatementCount?: boolean;
  /** Cost budget of one GraphQL operation; the default of src/graphql/limits/limits.ts when absent. */
  graphqlMaxCost?: number;
  /** Answer plannable read-only GraphQL queries with one SQL statement (default true; src/graphql/sql-plan). */
  graphqlSqlPlans?: boolean;
  /** LEDGER_CORS_ORIGINS: comma-separated origins or `*`; absent: no CORS headers (src/http/cors.ts). */
  corsOrigins?: string;
  /** LEDGER_METRICS_TOKEN: when set, GET /metrics needs `Authorization: Bearer <token>`. */
  metricsToken?: string;
  /** The expiry sweeper's interval (0: not scheduled, tests only) and batch size; DEFAULTS.lotSweep (src/config.ts) when absent. */
  lotSweep?: ExpirySweeperOptions;
  /** LEDGER_SUBSCRIPTION_BUFFER: events a subscription may fall behind before its connection is closed (1013). */
  subscriptionBuffer?: number;
  /** Subscription sockets' keep-alive (KEEP_ALIVE_MS when absent; 0: none): tests whose subscriber reads nothing on purpose. */
  subscriptionKeepAliveMs?: number;
  /** Outbound webhooks (LEDGER_WEBHOOK_*); DEFAULTS.webhooks (src/config.ts) when absent. */
  webhooks?: WebhookOptions;
  /** Posting batches in the database at once; DEFAULTS.postingPipeline (src/config.ts) when absent. */
  postingPipeline?: number;
  /** LEDGER_STREAM_STALL_MS: an export whose client takes nothing for this long is cut; DEFAULTS.streamStallMs (src/config.ts) when absent. */
  streamStallMs?: number;
  /** The GraphQL schema of ledgerSchema() when built already (src/start.ts builds it while initdb runs); built here when absent. */
  graphqlSchema?: GraphQLSchema;
}

export interface App {
  server: Server;
  services: Services;
  /** Every route the HTTP server answers (tests hold each to the rules of every route, e.g. test/http/query.test.ts). */
  routes: readonly Route[];
  /** GraphQL subscriptions over WebSocket (its open sockets per owner). */
  subscriptions: SubscriptionServer;
  listen(port: number, host: string): Promise<AddressInfo>;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), then stops background work. */
  close(graceMs?: number): Promise<void>;
}

export async function createApp(options: AppOptions): Promise<App> {
  const { db, logger } = options;
  const services = await createServices(db, logger, { lotSweep: options.lotSweep, webhooks: options.webhooks, subscriptionBuffer: options.subscriptionBuffer, postingPipeline: options.postingPipeline, streamStallMs: options.streamStallMs });
  // The listening connection (the Database's) opens while the GraphQL schema is built rather than
  // after it: its handshake no longer adds to the start-up. At the service's start it has been
  // opening since openDatabase (`listen`), and start() joins that. The services have subscribed
  // already (their channels are listened to as it opens); it is awaited below.
  const notificationsOpened = services.notifications.start();
  notificationsOpened.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
  try {
    return await assemble(options, services, notificationsOpened);
  } catch (error) {
    await services.notifications.stop();
    throw error;
  }
}

async function assemble(options: AppOptions, services: Services, notificationsOpened: Promise<void>): Promise<App> {
  const { logger } = options;
  const graphql = await createGraphQLEndpoint(services, graphQLLimits(options.graphqlMaxCost), { sqlPlans: options.graphqlSqlPlans ?? true, exposePlan: options.exposeStatementCount ?? false, schema: options.graphqlSchema });
  const rest = restRoutes(services);
  // the REST compatibility interface, /graphql, the REST routes' /openapi.json, /metrics and the web pages
  const routes = [...rest, ...graphqlRoutes(graphql), openApiRoute(rest), metricsRoute(services.metrics, options.metricsToken), ...webRoutes()];
  const server = createHttpServer({
    routes,
    apiKeys: services.apiKeys,
    calls: services.calls,
    idempotency: services.idempotency,
    logger,
    adminToken: options.adminToken,
    exposeStatementCount: options.exposeStatementCount ?? false,
    metrics: services.metrics,
    cors: new Cors(options.corsOrigins),
    streamStallMs: options.streamStallMs ?? DEFAULTS.streamStallMs,
  });
  const subscriptions = attachSubscriptionServer(server, { schema: graphql.schema, services, limits: graphQLLimits(options.graphqlMaxCost), logger, keepAliveMs: options.subscriptionKeepAliveMs });
  await notificationsOpened;
  services.calls.start();
  services.expirySweeper.start();
  services.journalWriter.start();
  services.eventSequencer.start();
  await services.eventHub.start();
  await services.webhookDeliveries.start();
  const purge = setInterval(() => void services.idempotency.purgeExpired().catch(() => undefined), 3_600_000);
  purge.unref();
  return {
    server,
    services,
    routes,
    subscriptions,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          // graphql-jit loads on first use (graphql/jit.ts): start that in the background, once the
          // caller has been told (an import may run to its end within the microtasks that follow)
          setImmediate(preloadJit);
          resolve(server.address() as AddressInfo);
        });
      }),
    async close(graceMs = 10_000) {
      clearInterval(purge);
      // Subscribers are told at once (1001) rather than after the in-flight requests.
      const subscriptionsClosed = subscriptions.close(Math.min(graceMs, 1_000));
      // deliveries in flight finish (or are released) while requests in flight finish
      const deliveriesStopped = services.webhookDeliveries.stop(graceMs);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A keep-alive connection whose in-flight request has just finished turns idle but stays
      // open, which would hold server.close() until the grace timer: close idle ones as they appear.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      await subscriptionsClosed;
      services.eventFeeds.stop();
      clearInterval(sweep);
      clearTimeout(timer);
      await graphql.stop();
      await deliveriesStopped;
      await services.expirySweeper.stop();
      await services.eventHub.stop();
      // after the last posting (the server is closed): its events are numbered before we go
      await services.eventSequencer.stop();
      await services.eventSequencer.flush();
      await services.journalWriter.flush();
      await services.journalWriter.stop();
      await services.calls.stop();
      await services.notifications.stop();
    },
  };
}
