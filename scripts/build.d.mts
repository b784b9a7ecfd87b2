// Types of scripts/build.mjs for the TypeScript tests that call it (test/process/npm-start.test.ts).
/** Compiles and bundles when dist/ is stale; an exit status, 0 when dist/ is usable. */
export function buildIfStale(): number;
/** The file URL `npm start` imports: the current bundle, else dist/src/main.js (also with tracing on). */
export function serviceEntry(env?: NodeJS.ProcessEnv): string;
