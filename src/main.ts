// Entry point. graphql-js picks a slow development-mode type check when it is first imported
// unless NODE_ENV is "production", so the default is set here, before anything imports it
// (static imports would be hoisted above this line, hence the dynamic imports). Tracing, when
// configured, must hook module loading before the service's modules are imported.
process.env.NODE_ENV ??= 'production';
const { startTracing } = await import('./observability/tracing.js');
const stopTracing = await startTracing();
const { main } = await import('./start.js');
await main(stopTracing);
