// Entry point. graphql-js picks a slow development-mode type check when it is first imported
// unless NODE_ENV is "production", so the default is set here, before anything imports it
// (static imports would be hoisted above this line, hence the dynamic import).
process.env.NODE_ENV ??= 'production';
await import('./start.js');
