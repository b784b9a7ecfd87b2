import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import type { ApiKeyService, Principal } from '../domain/auth/api-key.service.js';
import { secretMatches } from '../domain/auth/secret-match.js';
import type { CallCounter } from '../domain/auth/call-counter.js';
import { LedgerError, validationError } from '../domain/errors.js';
import { fingerprint, type IdempotencyService } from '../domain/idempotency/idempotency.service.js';
import { asAdmission, withStatementScope, type StatementScope } from '../db/statement-counter.js';
import type { Logger } from '../logger.js';
import { readJsonBody } from './body.js';
import { readQuery } from './query.js';
import type { Reply, Route } from './route.js';
import { Router } from './router.js';
import type { Cors } from './cors.js';
import type { Metrics } from '../observability/metrics.js';
import { tagRequestSpan } from '../observability/tracing.js';
import { toLedgerError } from '../domain/shared/error-translation.js';
import { parseInput } from '../domain/shared/validation.js';
import { requireAdvancedAnalytics } from '../domain/analytics/analytics.rules.js';

export interface HttpDeps {
  routes: Route[];
  apiKeys: ApiKeyService;
  calls: CallCounter;
  idempotency: IdempotencyService;
  logger: Logger;
  adminToken?: string;
  exposeStatementCount: boolean;
  metrics: Metrics;
  cors: Cors;
  /** LEDGER_STREAM_STALL_MS: a streamed reply whose client takes nothing for this long is cut. */
  streamStallMs: number;
}

/** What the pipeline learns about a request on its way (the route template labels its metrics). */
interface RequestFacts {
  route: string;
  refusal?: Route['refusal'];
}

/** The metrics label of a request that matched no route: raw paths would make labels unbounded. */
const UNMATCHED = 'unmatched';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const PUBLIC_PREFIXES = ['/healthz', '/readyz', '/openapi.json', '/metrics', '/admin/'];

export function createHttpServer(deps: HttpDeps): Server {
  const router = new Router(deps.routes);
  const server = createServer((req, res) => {
    if (deps.cors.answerPreflight(req, res)) return;
    const scope: StatementScope = { statements: 0 };
    void withStatementScope(scope, () => handle(deps, router, req, res, scope));
  });
  server.keepAliveTimeout = 65_000;
  return server;
}

async function handle(deps: HttpDeps, router: Router, req: IncomingMessage, res: ServerResponse, scope: StatementScope): Promise<void> {
  const started = process.hrtime.bigint();
  const incomingId = req.headers['x-request-id'];
  const requestId = typeof incomingId === 'string' && REQUEST_ID.test(incomingId) ? incomingId : randomUUID();
  const log = deps.logger.child({ requestId });
  // With tracing on, the HTTP server span is active here; without it this is a no-op.
  tagRequestSpan(requestId);
  const facts: RequestFacts = { route: UNMATCHED };
  const clientGone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) clientGone.abort(new Error('the client went away before its answer was complete'));
  });
  let reply: Reply;
  try {
    reply = await dispatch(deps, router, req, requestId, log, facts, clientGone.signal);
  } catch (error) {
    const ledgerError = toLedgerError(error);
    // work stopped because its client left is no failure of ours
    if (ledgerError.code === 'internal_error' && !clientGone.signal.aborted) log.error({ err: error, method: req.method, url: req.url }, 'unexpected error');
    reply = facts.refusal?.(ledgerError) ?? { status: ledgerError.status, body: ledgerError.toBody() };
    // the daily quota says when it renews; a cap on concurrent work cannot
    if (ledgerError.code === 'rate_limited' && ledgerError.details.retry_after !== undefined) reply.headers = { 'retry-after': String(ledgerError.details.retry_after) };
  }
  if (reply.stream) return sendStream(deps, req, res, reply, reply.stream, { requestId, log, started, route: facts.route, scope });
  const payload = reply.json ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
  const headers: Record<string, string | number> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'x-request-id': requestId,
    // no answer is ever sniffed into another type (CONTRACT §18: JSON answers, and pages and assets alike)
    'x-content-type-options': 'nosniff',
    ...deps.cors.responseHeaders(req),
    ...reply.headers,
  };
  if (deps.exposeStatementCount) {
    headers['x-sql-statements'] = scope.statements;
    headers['x-sql-admission-statements'] = scope.admission ?? 0;
  }
  res.writeHead(reply.status, headers);
  res.end(req.method === 'HEAD' ? undefined : payload);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  deps.metrics.observeHttp(req.method ?? 'GET', facts.route, reply.status, ms / 1000);
  log.info({ method: req.method, url: req.url, status: reply.status, ms: Math.round(ms * 100) / 100, statements: scope.statements }, 'request');
}

/**
 * A streamed reply (Reply.stream): headers first, then the body as it is produced. Every stage is
 * destroyed on every path that does not end it — the client gone before the headers (pipeline()
 * refuses a destroyed destination without touching the source), gone midway, stalled past
 * `streamStallMs` (the socket took no byte for that long: its kernel buffers are full), or a
 * failure, which destroys the response.
 */
async function sendStream(
  deps: HttpDeps,
  req: IncomingMessage,
  res: ServerResponse,
  reply: Reply,
  stages: NonNullable<Reply['stream']>,
  at: { requestId: string; log: Logger; started: bigint; route: string; scope: StatementScope },
): Promise<void> {
  const headers: Record<string, string | number> = { 'x-request-id': at.requestId, ...deps.cors.responseHeaders(req), ...reply.headers };
  let outcome = 'complete';
  let stalled = false;
  res.setTimeout(deps.streamStallMs, () => {
    stalled = true;
    res.destroy();
  });
  try {
    if (res.destroyed) throw new Error('the client went away before the stream began');
    res.writeHead(reply.status, headers);
    if (req.method === 'HEAD') res.end();
    else await pipeline([...stages, res]);
  } catch (error) {
    outcome = stalled ? 'stalled' : res.destroyed && !res.writableFinished ? 'client_gone' : 'failed';
    if (outcome === 'failed') at.log.error({ err: error, method: req.method, url: req.url }, 'stream failed after its headers');
    res.destroy();
  } finally {
    for (const stage of stages) stage.destroy();
  }
  const ms = Number(process.hrtime.bigint() - at.started) / 1e6;
  deps.metrics.observeHttp(req.method ?? 'GET', at.route, reply.status, ms / 1000);
  at.log.info({ method: req.method, url: req.url, status: reply.status, ms: Math.round(ms * 100) / 100, statements: at.scope.statements, stream: outcome }, 'request');
}

async function dispatch(deps: HttpDeps, router: Router, req: IncomingMessage, requestId: string, log: Logger, facts: RequestFacts, signal: AbortSignal): Promise<Reply> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const isPublic = PUBLIC_PREFIXES.some((p) => url.pathname === p || (p.endsWith('/') && url.pathname.startsWith(p)));
  const match = router.match(req.method ?? 'GET', url.pathname, /\btext\/html\b/.test(req.headers.accept ?? ''));
  if (match) {
    facts.route = match.route.path;
    facts.refusal = match.route.refusal;
  }
  const auth = match?.route.auth ?? (isPublic ? 'none' : 'api_key');

  let principal = undefined as unknown as Principal;
  if (auth === 'api_key') {
    principal = await asAdmission(async () => {
      const admitted = await deps.apiKeys.authenticate(header(req, 'api_key'));
      await deps.calls.admit(admitted.ownerId, admitted.plan.api_calls_per_day);
      return admitted;
    });
  } else if (auth === 'admin') {
    if (!deps.adminToken) throw new LedgerError('not_found', 'route not found');
    if (!secretMatches(deps.adminToken, header(req, 'admin_token'))) throw new LedgerError('unauthorized', 'missing or wrong admin_token header');
  }
  if (!match) throw new LedgerError('not_found', `no route for ${req.method} ${url.pathname}`);
  const { route } = match;
  if (route.feature === 'advanced_analytics') requireAdvancedAnalytics(principal.plan);

  const wantsBody = route.body !== undefined || route.rawBody === true;
  const rawBody = wantsBody ? await readJsonBody(req) : undefined;
  // after the body's size, type and syntax (413, 415 come first, CONTRACT §2), before any field
  const rawQuery = readQuery(url.searchParams);
  const params = route.params ? parseInput(route.params, match.params, 'path') : match.params;
  const query = route.query ? parseInput(route.query, rawQuery, 'query') : undefined;
  const body = route.body ? parseInput(route.body, rawBody === undefined ? {} : rawBody, 'body') : rawBody;

  const run = async (): Promise<Reply> => route.handler({ body, query, params, principal, requestId, log, req, signal });
  const key = header(req, 'idempotency-key');
  // a dry run writes nothing, an idempotency record included (CONTRACT §24): its key is ignored
  const dryRun = (query as { dryRun?: unknown } | undefined)?.dryRun === true || route.writesNothing?.(rawBody) === true;
  if (route.method !== 'POST' || key === undefined || auth !== 'api_key' || dryRun) return run();
  if (key.length < 1 || key.length > 255) throw validationError('Idempotency-Key', 'must be 1 to 255 characters');
  const replay = await deps.idempotency.run(principal.ownerId, key, fingerprint('POST', url.pathname, rawBody ?? null), run);
  return replay.replayed ? { ...replay, headers: { 'idempotent-replayed': 'true' } } : replay;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
