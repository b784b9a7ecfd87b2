import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestDatabase } from '../support/database.js';
import { issueKey, killAll, spawnService, stopService, waitFor, waitListening, type RunningService } from '../system/support/process.js';

/**
 * Tracing (CONTRACT §17): with OTEL_EXPORTER_OTLP_ENDPOINT set, the compiled service exports a
 * request's spans — HTTP server, GraphQL and pg, one trace — to an OTLP/HTTP receiver, and the
 * server span carries the request id. The receiver here is a plain HTTP server taking OTLP JSON.
 */
interface ReceivedSpan {
  traceId: string;
  name: string;
  attributes: Record<string, unknown>;
}

const spans: ReceivedSpan[] = [];
let receiver: Server;
let service: RunningService;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') collect(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // the loader hook wraps every module the service imports: 14-23 s to listen on this 2-core machine under
  // a parallel test load (the same with OpenTelemetry 0.223 and 0.301), beyond the usual 20 s budget
  service = await waitListening(spawnService({ databaseUrl: await createTestDatabase(), env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '50' } }), 50_000);
}, 60_000);

afterAll(async () => {
  await killAll();
  await new Promise((resolve) => receiver.close(resolve));
});

function collect(body: { resourceSpans?: { scopeSpans?: { spans?: { traceId: string; name: string; attributes?: { key: string; value: Record<string, unknown> }[] }[] }[] }[] }): void {
  for (const resource of body.resourceSpans ?? []) {
    for (const scope of resource.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        const attributes = Object.fromEntries((span.attributes ?? []).map((a) => [a.key, Object.values(a.value)[0]]));
        spans.push({ traceId: span.traceId, name: span.name, attributes });
      }
    }
  }
}

it('exports the HTTP, GraphQL and pg spans of a request in one trace, tagged with its request id', async () => {
  const key = await issueKey(service, 'tracer');
  const requestId = 'trace-me-0001';
  const res = await fetch(`${service.baseUrl}/graphql`, {
    method: 'POST',
    headers: { api_key: key, 'content-type': 'application/json', 'x-request-id': requestId },
    body: JSON.stringify({ query: '{ projects { totalCount } }' }),
  });
  expect(res.status).toBe(200);
  await waitFor(() => spans.some((s) => s.attributes['ledger.request_id'] === requestId), 10_000, 'no span carried the request id');
  const server = spans.find((s) => s.attributes['ledger.request_id'] === requestId)!;
  const inTrace = () => spans.filter((s) => s.traceId === server.traceId);
  await waitFor(() => inTrace().some((s) => s.attributes['db.system'] === 'postgresql' || s.attributes['db.system.name'] === 'postgresql'), 10_000, 'no pg span in the trace');
  await waitFor(() => inTrace().some((s) => s.name.startsWith('graphql')), 10_000, 'no GraphQL span in the trace');
  expect(server.name).toMatch(/POST/);
  await stopService(service);
});
