// `npm start`: compiles when dist/ is stale (scripts/build.mjs), then runs the service in this same
// process. One node process rather than a `prestart` one before it: a node start-up costs about
// 0.15 s, a tenth of the second start's budget. Flags for the service go on this command line
// (package.json), since this process is the service. It runs the bundle of the build (see
// serviceEntry in build.mjs) when there is one.
import { statSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { fileURLToPath } from 'node:url';
import { buildIfStale, serviceEntry } from './build.mjs';

const status = buildIfStale();
if (status !== 0) process.exit(status);
const entry = serviceEntry();
// V8's compiled code of the bundle's chunks, kept beside them: ≈ 70 ms less CPU from the second
// start on (written when a start exits). Inside dist/bundle, which every build empties: never
// another build's code, nor another checkout's or user's; node checks each file's hash as well.
// Where it cannot be written (a read-only install) node goes on without it. Only in a bundle this
// user owns: a start as root in someone's checkout would leave files there that their next build
// could not remove.
if (entry.endsWith('/dist/bundle/main.js') && statSync(new URL('.', entry)).uid === process.getuid?.()) {
  nodeModule.enableCompileCache?.(fileURLToPath(new URL('.compile-cache', entry)));
}
await import(entry);
