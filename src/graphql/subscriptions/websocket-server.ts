import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { GraphQLError, type ExecutionArgs, type GraphQLSchema } from 'graphql';
import type { Context, SubscribePayload } from 'graphql-ws';
import { useServer, type Extra } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Principal } from '../../domain/auth/api-key.service.js';
import type { FeedStart } from '../../domain/events/feed-start.js';
import { LedgerError } from '../../domain/errors.js';
import { toLedgerError } from '../../domain/shared/error-translation.js';
import type { Logger } from '../../logger.js';
import type { Services } from '../../services.js';
import { createContext } from '../context.js';
import type { GraphQLLimits } from '../limits/limits.js';
import { CLOSE } from './close-codes.js';
import { CoalescingWebSocket } from './coalescing-socket.js';
import { CompiledSubscriptions } from './compiled-subscriptions.js';
import { formatSubscriptionError, OperationChecks } from './operation-checks.js';
import { OwnerSockets } from './owner-sockets.js';

/** The path subscriptions are served on: the GraphQL endpoint's own (CONTRACT §16). */
const PATH = '/graphql';
/** A client message larger than this closes the socket (1009): documents are small. */
const MAX_MESSAGE_BYTES = 100 * 1024;
/** Subscriptions one connection may hold at once (the console holds one per wallet on screen, about 20). */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 100;
/** Open subscription sockets one owner may hold on one instance, counted from connection_init (CONTRACT §18). */
export const MAX_SOCKETS_PER_OWNER = 100;
/** A socket that sends no connection_init within this long is closed with 4408 (CONTRACT §18). */
export const INIT_WAIT_MS = 3_000;
/**
 * Every this long each socket is pinged, and one that has not answered by the next ping is
 * terminated (graphql-ws's keep-alive, its default made explicit): a peer that is gone, or that
 * reads nothing, holds no socket and no buffers for long.
 */
export const KEEP_ALIVE_MS = 12_000;

/** One authenticated connection. */
interface Session {
  apiKey: string;
  principal: Principal;
  requestId: string;
  log: Logger;
  socket: WebSocket;
  /** Each subscription's starting point, by id, from its message until it ends (see prepare). */
  starts: Map<string, FeedStart>;
}

type ConnectionContext = Context<Record<string, unknown> | undefined, Extra & Partial<{ session: Session }>>;

export interface SubscriptionServerOptions {
  schema: GraphQLSchema;
  services: Services;
  limits: GraphQLLimits;
  logger: Logger;
  /** KEEP_ALIVE_MS unless given; 0: no keep-alive. */
  keepAliveMs?: number;
}

export interface SubscriptionServer {
  /** Open sockets per owner on this instance. */
  sockets: OwnerSockets;
  /** Closes every connection with 1001 (terminating those that do not answer within `graceMs`) and stops accepting new ones. */
  close(graceMs?: number): Promise<void>;
}

/**
 * GraphQL subscriptions over WebSocket on the HTTP server's /graphql (protocol
 * graphql-transport-ws, the graphql-ws package). The api_key travels in connection_init's payload
 * (`{"api_key": "…"}`; the upgrade request's `api_key` header is accepted too, for gateways that
 * forward headers): missing or unknown closes the socket with 4401, and so does a key revoked
 * while connected (re-checked whenever its owner's keys change, on any instance). Each subscribe
 * message passes the same limits as an HTTP document (tokens, depth, aliases, cost) and counts one
 * call against the owner's daily quota. Queries and mutations stay on HTTP. An owner holds at
 * most MAX_SOCKETS_PER_OWNER authenticated sockets here (the next is closed with 4429), and a
 * socket silent for INIT_WAIT_MS after opening is closed with 4408, so idle or unauthenticated
 * sockets cannot pile up.
 */
export function attachSubscriptionServer(server: Server, options: SubscriptionServerOptions): SubscriptionServer {
  const { schema, services, limits, logger } = options;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, WebSocket: CoalescingWebSocket });
  const sessions = new Set<Session>();
  const sockets = new OwnerSockets(MAX_SOCKETS_PER_OWNER);
  const checks = new OperationChecks(schema, limits);
  const compiled = new CompiledSubscriptions();
  let closing = false;
  services.metrics.gauge('ledger_websocket_connections', 'Open WebSocket connections on /graphql (subscriptions)', () => wss.clients.size);
  services.metrics.gauge('ledger_graphql_subscriptions', 'Open GraphQL subscriptions on this instance', () => services.eventFeeds.size);
  const countDropped = services.metrics.counter('ledger_graphql_subscribers_dropped_total', 'Subscription connections closed with 1013 because the subscriber fell behind');

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (closing || pathname !== PATH) {
      socket.end(`HTTP/1.1 ${closing ? '503 Service Unavailable' : '404 Not Found'}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      (ws as CoalescingWebSocket).writesTo(socket);
      wss.emit('connection', ws, req);
    });
  };
  server.on('upgrade', onUpgrade);

  const stopFollowing = services.apiKeys.onOwnerChange((ownerId) => {
    for (const session of sessions) if (ownerId === null || session.principal.ownerId === ownerId) void recheck(session);
  });
  const recheck = async (session: Session) => {
    try {
      session.principal = await services.apiKeys.authenticate(session.apiKey);
    } catch (error) {
      const refused = toLedgerError(error).code === 'unauthorized';
      if (!refused) session.log.warn({ err: error }, 'could not re-check the api_key of a subscription connection');
      if (refused) close(session.socket, CLOSE.unauthorized);
    }
  };

  const dispose = useServer<Record<string, unknown> | undefined, { session: Session }>(
    {
      schema,
      isProd: true, // close reasons never carry internal error messages
      connectionInitWaitTimeout: INIT_WAIT_MS,
      subscribe: (args) => compiled.subscribe(args), // each event's message from a compiled document (compiled-subscriptions.ts)
      async onConnect(ctx) {
        const session = await authenticate(ctx);
        if (!session || session.socket.readyState !== session.socket.OPEN) return false; // refused, or gone meanwhile
        if (!sockets.take(session.principal.ownerId)) {
          session.log.warn({ owner: session.principal.ownerId }, 'subscription connection refused: too many sockets for this owner (4429)');
          close(session.socket, CLOSE.tooManySockets);
          return false;
        }
        ctx.extra.session = session;
        sessions.add(session);
        return true;
      },
      onClose(ctx) {
        const session = ctx.extra.session;
        if (!session) return;
        sessions.delete(session);
        sockets.release(session.principal.ownerId);
        for (const start of session.starts.values()) start.release();
        session.starts.clear();
      },
      onSubscribe: (ctx, id, payload) => prepare(ctx, id, payload),
      onComplete: (ctx, id) => settled(ctx, id),
      onNext: (ctx, _id, _payload, _args, result) => ({ ...result, errors: result.errors?.map((error) => format(ctx, error, true)) }),
      onError: (ctx, id, _payload, errors) => {
        settled(ctx, id);
        return errors.map((error) => format(ctx, error, false));
      },
    },
    wss,
    options.keepAliveMs ?? KEEP_ALIVE_MS,
  );

  async function authenticate(ctx: ConnectionContext): Promise<Session | null> {
    const socket = ctx.extra.socket;
    const fromPayload = ctx.connectionParams?.api_key;
    const fromHeader = ctx.extra.request.headers.api_key;
    const apiKey = typeof fromPayload === 'string' ? fromPayload : typeof fromHeader === 'string' ? fromHeader : '';
    const requestId = randomUUID();
    const log = logger.child({ requestId });
    try {
      const principal = await services.apiKeys.authenticate(apiKey || undefined);
      log.info({ owner: principal.ownerId }, 'subscription connection');
      return { apiKey, principal, requestId, log, socket, starts: new Map() };
    } catch (error) {
      const unauthorized = toLedgerError(error).code === 'unauthorized';
      if (!unauthorized) log.error({ err: error }, 'subscription connection: authentication failed');
      // Closing here makes graphql-ws's own close (4403 after `false`) a no-op.
      close(socket, unauthorized ? CLOSE.unauthorized : CLOSE.internal);
      return null;
    }
  }

  /**
   * Parses, validates and costs a subscribe message; counts the call; builds its context. Its
   * starting point is fixed first, in the turn the message arrived (CONTRACT §16: it receives
   * every event committed after that), and handed to the resolver through the context.
   */
  function prepare(ctx: ConnectionContext, id: string, payload: SubscribePayload): Promise<ExecutionArgs | readonly GraphQLError[]> {
    const session = ctx.extra.session!;
    session.starts.get(id)?.release();
    const start = services.eventFeeds.startNow();
    session.starts.set(id, start);
    return admitted(ctx, session, start, payload).then((prepared) => {
      if (Array.isArray(prepared)) settled(ctx, id); // refused: no feed will take the start
      return prepared;
    });
  }

  /** A subscription has ended (or never began): its start, if no feed took it, stops holding events. */
  function settled(ctx: ConnectionContext, id: string): void {
    const session = ctx.extra.session;
    session?.starts.get(id)?.release();
    session?.starts.delete(id);
  }

  async function admitted(ctx: ConnectionContext, session: Session, start: FeedStart, payload: SubscribePayload): Promise<ExecutionArgs | readonly GraphQLError[]> {
    const active = Object.keys(ctx.subscriptions).length; // this one's reservation included
    if (active > MAX_SUBSCRIPTIONS_PER_CONNECTION) {
      const problem = `a connection may hold at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} subscriptions at once`;
      return [new GraphQLError(problem, { originalError: new LedgerError('validation_error', problem, { limit: 'subscriptions', maximum: MAX_SUBSCRIPTIONS_PER_CONNECTION }) })];
    }
    const checked = checks.check(payload);
    if (Array.isArray(checked)) return checked;
    const { document, operation, operationName, variables } = checked;
    compiled.admit(document, payload.query);
    try {
      await services.calls.admit(session.principal.ownerId, session.principal.plan.api_calls_per_day);
    } catch (error) {
      const refusal = toLedgerError(error);
      return [new GraphQLError(refusal.message, { originalError: refusal })];
    }
    services.metrics.countGraphqlOperation(operation.operation, false);
    const contextValue = createContext(session.principal, services, session.requestId, session.log, limits);
    contextValue.subscriber = {
      start,
      tooSlow: () => {
        countDropped();
        session.log.warn({ owner: session.principal.ownerId }, 'subscriber too slow: connection closed (1013)');
        close(session.socket, CLOSE.tooSlow);
      },
    };
    return { schema, document, operationName, variableValues: variables, contextValue };
  }

  function format(ctx: ConnectionContext, error: GraphQLError, inResult: boolean) {
    const { formatted, unexpected } = formatSubscriptionError(error, inResult);
    if (unexpected) (ctx.extra.session?.log ?? logger).error({ err: error.originalError ?? error, path: error.path }, 'unexpected GraphQL subscription error');
    return formatted;
  }

  return {
    sockets,
    async close(graceMs = 1_000) {
      closing = true;
      stopFollowing();
      server.off('upgrade', onUpgrade);
      const fuse = setTimeout(() => {
        for (const client of wss.clients) client.terminate();
      }, graceMs);
      fuse.unref();
      for (const client of wss.clients) close(client, CLOSE.goingAway);
      await dispose.dispose();
      clearTimeout(fuse);
    },
  };
}

function close(socket: WebSocket, { code, reason }: { code: number; reason: string }): void {
  socket.close(code, reason);
}
