import { register } from 'node:module';

/**
 * OpenTelemetry tracing, on only when the standard OTEL_EXPORTER_OTLP_ENDPOINT (or its traces
 * variant) is set: HTTP, pg and GraphQL spans exported over OTLP (OTEL_EXPORTER_OTLP_PROTOCOL,
 * http/protobuf by default; OTEL_SERVICE_NAME defaults to `ledger`). The service is ESM, so the
 * instrumentations need the import-in-the-middle loader hook, registered before the service's
 * modules are imported: main.ts awaits this first, then imports the rest. Off, nothing of the SDK
 * is even loaded.
 */
/**
 * Tags the active span (the HTTP server span) with the request id. A no-op until tracing starts:
 * without it `@opentelemetry/api` (about a hundred modules) is not loaded at all.
 */
export let tagRequestSpan: (requestId: string) => void = () => undefined;

export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<(() => Promise<void>) | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return undefined;
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const [{ trace }, { NodeSDK }, { HttpInstrumentation }, { PgInstrumentation }, { GraphQLInstrumentation }, { OTLPTraceExporter }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-graphql'),
    import('@opentelemetry/exporter-trace-otlp-http'),
  ]);
  env.OTEL_SERVICE_NAME ??= 'ledger';
  const sdk = new NodeSDK({
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [new HttpInstrumentation(), new PgInstrumentation(), new GraphQLInstrumentation({ mergeItems: true, ignoreTrivialResolveSpans: true })],
  });
  sdk.start();
  tagRequestSpan = (requestId) => trace.getActiveSpan()?.setAttribute('ledger.request_id', requestId);
  return () => sdk.shutdown();
}
