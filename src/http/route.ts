import type { IncomingMessage } from 'node:http';
import type { Duplex, Readable } from 'node:stream';
import type { z } from 'zod';
import type { LedgerError } from '../domain/errors.js';
import type { Principal } from '../domain/auth/api-key.service.js';
import type { Logger } from '../logger.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Auth = 'api_key' | 'admin' | 'none';

export interface RequestContext<B = unknown, Q = unknown, P = unknown> {
  body: B;
  query: Q;
  params: P;
  /** Set on `api_key` routes. */
  principal: Principal;
  requestId: string;
  log: Logger;
  req: IncomingMessage;
  /**
   * Aborted when the client goes away before its answer is complete (or the server cuts the
   * connection at shutdown): work done only for this answer may stop, and must give back what it holds.
   */
  signal: AbortSignal;
}

export interface Reply {
  status: number;
  body: unknown;
  /** The body already serialised (GraphQL answers as JSON, pages, static files); sent as is instead of `body`. */
  json?: string | Buffer;
  headers?: Record<string, string>;
  /**
   * A body streamed as it is produced (an export): its source, then the stages it goes through
   * (formatting). `body` is ignored; the headers (its content-type among them) go out first, then
   * the stages' output. The server owns every stage from here: each is destroyed on every path
   * that does not end it (the client gone before or during the stream, a client that stops reading
   * for LEDGER_STREAM_STALL_MS, a failure), which is what gives back what the source holds. A
   * failure after the headers can no longer become an error body: the response is destroyed, and
   * the client sees a cut connection rather than a truncated success.
   */
  stream?: [Readable, ...Duplex[]];
}

export interface RouteDoc {
  /**
   * The operation's name in /openapi.json and in generated clients (a camelCase verb: createTransaction,
   * getWallet). Required, so a documented route without one does not compile; unique (test/rest/openapi.test.ts).
   */
  operationId: string;
  summary: string;
  tag: string;
  /** Success status and the schema of its body (`content`: per media type, when it is not JSON). */
  response: { status: number; schema: z.ZodType; content?: Record<string, z.ZodType> };
  /** The 200 body of a dry run (`?dryRun=true`, CONTRACT §24), on the routes that take one. */
  dryRun?: z.ZodType;
  /** Error codes this route can answer besides the common ones (401, 429, 500). */
  errors: string[];
}

export interface Route<B = any, Q = any, P = any> {
  method: Method;
  path: string;
  auth: Auth;
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
  /** Matches only requests whose Accept asks for HTML (a browser page beside an API route on one path). */
  html?: boolean;
  /** A plan flag the route needs (CONTRACT §23): checked right after authentication, before any parameter. */
  feature?: 'advanced_analytics';
  /** Pass the parsed JSON body through without a schema (GraphQL validates its own documents). */
  rawBody?: boolean;
  /**
   * Whether this request can write nothing (a GraphQL document of dry runs only): then its
   * `Idempotency-Key` is ignored before any claim, as a REST dry run's is (CONTRACT §24).
   */
  writesNothing?(body: unknown): boolean;
  doc?: RouteDoc;
  /**
   * Answers a refusal raised before the handler (authentication, the call quota) in the route's
   * own protocol; undefined: the common error body of CONTRACT §6.
   */
  refusal?(error: LedgerError): Reply | undefined;
  handler(ctx: RequestContext<B, Q, P>): Promise<Reply>;
}

export function route<B = undefined, Q = undefined, P = undefined>(definition: Route<B, Q, P>): Route<B, Q, P> {
  return definition;
}
