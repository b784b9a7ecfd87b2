import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGatewayRuntime, getGraphQLWSOptions } from '@graphql-hive/gateway';
import { useServer, type Extra } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';

export interface HiveGatewayOptions {
  /** The composed supergraph SDL (gateway/supergraph.ts). */
  supergraph: string;
  /** The ledger's subgraph name in the supergraph. */
  ledger?: string;
  port?: number;
  host?: string;
  /** Hive Gateway's log level; false: silent. */
  logging?: false | 'debug' | 'info' | 'warn' | 'error';
}

export interface RunningGateway {
  url: string;
  stop(): Promise<void>;
}

/**
 * The caller's api_key, wherever it came: the `api_key` header of an HTTP request, or the
 * connection_init payload of a WebSocket client (Hive Gateway merges that payload into
 * `context.headers`).
 */
const CALLERS_KEY = '{context.headers.api_key}';

/**
 * Hive Gateway (`@graphql-hive/gateway`, its programmatic runtime) over a supergraph, on Node's
 * HTTP server with graphql-ws for WebSocket clients, as its CLI serves it. The ledger subgraph is
 * reached over HTTP for queries, mutations and `_entities`, with the caller's api_key as a header,
 * and over WebSocket (graphql-transport-ws, on its /graphql) for subscriptions, with the caller's
 * api_key in connection_init: one upstream connection per distinct key, so tenancy holds.
 */
export async function startHiveGateway(options: HiveGatewayOptions): Promise<RunningGateway> {
  const { supergraph, ledger = 'ledger', port = 0, host = '127.0.0.1', logging = false } = options;
  const gateway = createGatewayRuntime({
    supergraph,
    logging,
    landingPage: false,
    transportEntries: {
      [ledger]: {
        headers: [['api_key', CALLERS_KEY]],
        options: {
          subscriptions: { kind: 'ws', location: '/graphql', options: { connectionParams: { api_key: CALLERS_KEY } } },
        },
      },
    },
  });
  const server = createServer(gateway);
  const wss = new WebSocketServer({ server, path: gateway.graphqlEndpoint });
  const ws = useServer(
    getGraphQLWSOptions<Record<string, unknown>, Extra>(gateway, (ctx) => ({ req: ctx.extra.request, socket: ctx.extra.socket, request: fetchRequest(ctx.extra.request, gateway.fetchAPI.Request) })),
    wss,
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}${gateway.graphqlEndpoint}`,
    async stop() {
      const fuse = setTimeout(() => {
        for (const client of wss.clients) client.terminate();
      }, 1_000);
      await ws.dispose();
      clearTimeout(fuse);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await gateway.dispose();
    },
  };
}

/** The WebSocket upgrade request as a Fetch API Request (what the runtime's plugins read). */
function fetchRequest(req: IncomingMessage, Request: typeof globalThis.Request): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, { headers });
}
