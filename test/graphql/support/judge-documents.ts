/**
 * Run as a child process by fragment-chain.test.ts, so that a regression to exponential work
 * fails on its time-out instead of hanging the test run. Reads `Judged[]` as JSON on stdin,
 * answers each document as the service does (POST /graphql through Apollo with our rules, or a
 * WebSocket `subscribe` through OperationChecks) without a database — a refused document never
 * reaches one — and prints, per document, the error code and the CPU time it took.
 */
import { getIntrospectionQuery, type GraphQLError } from 'graphql';
import type { IncomingMessage } from 'node:http';
import { createGraphQLEndpoint } from '../../../src/graphql/apollo.js';
import { graphQLLimits } from '../../../src/graphql/limits/limits.js';
import { formatSubscriptionError, OperationChecks } from '../../../src/graphql/subscriptions/operation-checks.js';
import { createLogger } from '../../../src/logger.js';
import { Metrics } from '../../../src/observability/metrics.js';
import type { Services } from '../../../src/services.js';
import type { Judged } from './expanding-documents.js';

export interface Judgement {
  name: string;
  status: number | null;
  code: string | null;
  details: unknown;
  cpuMs: number;
}

const input = await new Promise<string>((resolve) => {
  let text = '';
  process.stdin.setEncoding('utf8').on('data', (chunk) => (text += chunk)).on('end', () => resolve(text));
});
const documents = JSON.parse(input) as Judged[];
const limits = graphQLLimits();
const log = createLogger('fatal');
// only the metrics are used before execution; a document that reached the database would fail here
const endpoint = await createGraphQLEndpoint({ metrics: new Metrics(undefined, { processDefaults: false }) } as Services, limits);
const checks = new OperationChecks(endpoint.schema, limits);
const principal = { ownerId: 'judge', plan: {}, subscriptionCode: 'pro' } as Parameters<typeof endpoint.handle>[2];
const request = { method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json' } } as unknown as IncomingMessage;

async function judge({ name, transport, query }: Judged): Promise<Judgement> {
  const started = process.cpuUsage();
  let status: number | null = null;
  let error: { extensions?: { code?: unknown; details?: unknown } } | undefined;
  if (transport === 'http') {
    const reply = await endpoint.handle(request, { query }, principal, name, log);
    status = reply.status;
    error = (reply.body as { errors?: (typeof error)[] }).errors?.[0];
  } else {
    const checked = checks.check({ query });
    if (Array.isArray(checked)) error = formatSubscriptionError(checked[0] as GraphQLError, false).formatted;
  }
  const used = process.cpuUsage(started);
  const code = typeof error?.extensions?.code === 'string' ? error.extensions.code : null;
  return { name, status, code, details: error?.extensions?.details ?? null, cpuMs: (used.user + used.system) / 1000 };
}

// warm-up: the first request compiles the code paths; the introspection query is answered in full
const introspection = await judge({ name: 'introspection', transport: 'http', query: getIntrospectionQuery() });
const judgements = [introspection];
for (const document of documents) judgements.push(await judge(document));
process.stdout.write(JSON.stringify(judgements));
await endpoint.stop();
