// `npm start`: compiles when dist/ is stale (scripts/build.mjs), then runs the service in this same
// process. One node process rather than a `prestart` one before it: a node start-up costs about
// 0.15 s, a tenth of the second start's budget. Flags for the service go on this command line
// (package.json), since this process is the service. It runs the bundle of the build (see
// serviceEntry in build.mjs) when there is one.
import { buildIfStale, serviceEntry } from './build.mjs';

const status = buildIfStale();
if (status !== 0) process.exit(status);
await import(serviceEntry());
