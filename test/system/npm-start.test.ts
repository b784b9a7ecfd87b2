import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildIfStale, serviceEntry } from '../../scripts/build.mjs';
import { subgraphSdl } from '../../src/graphql/schema.js';
import { createTestDatabase } from '../support/database.js';
import { call, issueKey, killAll, ROOT, serviceEnv, spawnStartScript, stopService, waitListening, type RunningService } from './support/process.js';

/**
 * Whether bundled `code` defines the function `name`: the bundle's identifiers are minified
 * (scripts/build.mjs), and keepNames gives each function its name back by a call `f(fn,"name")`.
 */
const defines = (code: string, name: string): boolean => new RegExp(`[\\w$]+\\([\\w$]+,"${name}"\\)`).test(code);

/**
 * `npm start` (scripts/start.mjs, run here as package.json runs it) serves from the bundle that
 * `npm run build` makes of dist/src (scripts/build.mjs), not from dist/src's 1,700 modules that the
 * other process tests run. NODE_DEBUG=esm makes node name every module it loads on stderr.
 */
let service: RunningService;

beforeAll(async () => {
  // compiles and bundles only when stale (CI builds before the suite; locally a first run may take a minute)
  expect(buildIfStale()).toBe(0);
  const env = { ...serviceEnv({ databaseUrl: await createTestDatabase() }), NODE_DEBUG: 'esm', MALLOC_ARENA_MAX: undefined };
  service = await waitListening(spawnStartScript(env), 30_000);
}, 240_000);

afterAll(async () => {
  if (service) await stopService(service);
  await killAll();
});

describe('npm start', () => {
  it('loads the bundle, not dist/src, and serves REST and GraphQL from it', async () => {
    const loaded = [...service.stderr().matchAll(/Translating \w+ (file:\/\/\S+)/g)].map((m) => m[1]);
    expect(loaded).toContain(`file://${ROOT}/dist/bundle/main.js`);
    expect(loaded.filter((url) => url.includes('/dist/src/'))).toEqual([]);
    expect(loaded.filter((url) => url.includes('/node_modules/')).length).toBeLessThan(20);

    const key = await issueKey(service, 'bundle-owner');
    const created = await call<{ id: number }>(service, 'POST', '/projects', { key, body: { name: 'Bundled' } });
    expect(created.status).toBe(201);
    const refused = await call(service, 'POST', '/projects', { key, body: { name: 5 } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'validation_error' });
    // type-graphql's decorators and MikroORM's entities survive bundling (class names kept)
    const read = await call<{ data: { project: { id: string; name: string } } }>(service, 'POST', '/graphql', {
      key,
      body: { query: `{ project(id: "${created.body.id}") { id name } }` },
    });
    expect(read.status).toBe(200);
    expect(read.body.data.project).toEqual({ id: String(created.body.id), name: 'Bundled' });
  });

  it('builds its GraphQL schema from the subgraph SDL the build printed, without federation\'s schema model, and answers `_service` and `_entities` from it', async () => {
    const line = service.stdout().split('\n').find((text) => text.includes('"start-up phases"'));
    expect((JSON.parse(line ?? '{}') as { prebuiltSchema?: boolean }).prebuiltSchema).toBe(true);
    // buildSubgraphSchema's federation (@apollo/federation-internals: its schema model and
    // validations) is not even in the bundle: src/graphql/schema.ts is dead code there
    const bundle = path.join(ROOT, 'dist', 'bundle');
    const code = [bundle, path.join(bundle, 'chunks')].flatMap((dir) => readdirSync(dir).filter((name) => name.endsWith('.js')).map((name) => readFileSync(path.join(dir, name), 'utf8')));
    expect(code.filter((text) => text.includes('federation-internals/dist/definitions.js'))).toEqual([]);
    expect(code.filter((text) => text.includes('@link(url: "https://specs.apollo.dev/link/v1.0")')).length).toBe(1); // the printed SDL

    const key = await issueKey(service, 'subgraph-owner');
    const created = await call<{ id: number }>(service, 'POST', '/projects', { key, body: { name: 'Federated' } });
    const answer = await call<{ data: { _service: { sdl: string }; _entities: unknown[] } }>(service, 'POST', '/graphql', {
      key,
      body: { query: 'query($r: [_Any!]!) { _service { sdl } _entities(representations: $r) { ... on Project { id name } } }', variables: { r: [{ __typename: 'Project', id: String(created.body.id) }] } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data._service.sdl).toBe(await subgraphSdl());
    expect(answer.body.data._entities).toEqual([{ id: String(created.body.id), name: 'Federated' }]);
  });

  it('keeps V8\'s code cache of the bundle beside it (scripts/start.mjs): a start that exits writes it, the next start reads it', async () => {
    // its own two starts: the suite's service writes the cache only when it exits, after the tests
    const env = { ...serviceEnv({ databaseUrl: await createTestDatabase() }), NODE_DEBUG_NATIVE: 'COMPILE_CACHE', MALLOC_ARENA_MAX: undefined };
    const first = await waitListening(spawnStartScript(env), 30_000);
    expect((await stopService(first)).code).toBe(0);
    const cached = readdirSync(path.join(ROOT, 'dist', 'bundle', '.compile-cache'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    expect(cached.length).toBeGreaterThan(0);
    const second = await waitListening(spawnStartScript(env), 30_000);
    expect((await stopService(second)).code).toBe(0);
    // node's own account (NODE_DEBUG_NATIVE): the bundle's chunks compiled from the cache
    const accepted = [...second.stderr().matchAll(/V8 code cache for ESM (file:\S+) was accepted/g)].map((m) => m[1]!);
    expect(accepted.filter((url) => url.includes('/dist/bundle/chunks/')).length).toBeGreaterThan(5);
  }, 90_000);

  it('runs node with the memory settings of package.json: semi-spaces of 16 MiB, two malloc arenas', () => {
    // the start line execs node, so the child is the serving process; its peak RSS is what they
    // bound (docs/decisions/process-memory-flags.md)
    const argv = readFileSync(`/proc/${service.pid}/cmdline`, 'utf8').split('\0');
    expect(argv).toContain('--max-semi-space-size=16');
    expect(argv).toContain('scripts/start.mjs');
    const environ = readFileSync(`/proc/${service.pid}/environ`, 'utf8').split('\0');
    expect(environ).toContain('MALLOC_ARENA_MAX=2');
  });

  it('runs dist/src with tracing on (the instrumentations patch pg and graphql as node loads them)', () => {
    expect(serviceEntry({})).toBe(`file://${ROOT}/dist/bundle/main.js`);
    expect(serviceEntry({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(`file://${ROOT}/dist/src/main.js`);
    expect(serviceEntry({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })).toBe(`file://${ROOT}/dist/src/main.js`);
  });

  it('starts the embedded cluster before reading the service\'s modules: the start-up chunks hold none of them', () => {
    // what node has read when src/start.ts starts the cluster: main.js, the chunks it imports
    // (tracing, start) and their static imports; the service's modules come by import() after it
    const bundle = path.join(ROOT, 'dist', 'bundle');
    const read = new Set<string>();
    const visit = (file: string, dynamicToo: boolean) => {
      if (read.has(file)) return;
      read.add(file);
      const code = readFileSync(file, 'utf8');
      const imports = [...code.matchAll(/(?:^|[;}\s])import\s*(?:[\w*{}\s,$]+from\s*)?"(\.[^"]+)"/g)].map((m) => m[1]);
      for (const spec of imports) visit(path.resolve(path.dirname(file), spec), false);
      if (dynamicToo) for (const m of code.matchAll(/import\("(\.[^"]+)"\)/g)) visit(path.resolve(path.dirname(file), m[1]), false);
    };
    visit(path.join(bundle, 'main.js'), true);
    const early = [...read].map((file) => readFileSync(file, 'utf8'));
    expect(early.some((code) => code.includes('postmaster.pid'))).toBe(true); // src/db/embedded-postgres.ts
    expect(early.some((code) => defines(code, 'openDatabase') || defines(code, 'createApp'))).toBe(false);
    const all = [bundle, path.join(bundle, 'chunks')].flatMap((dir) => readdirSync(dir).filter((name) => name.endsWith('.js')).map((name) => path.join(dir, name)));
    expect(all.some((file) => defines(readFileSync(file, 'utf8'), 'createApp'))).toBe(true);
    const bytes = (files: string[]) => files.reduce((sum, file) => sum + readFileSync(file).length, 0);
    expect(bytes([...read])).toBeLessThan(bytes(all) / 10);
  });

  it('loads graphql-jit after it listens, not before: no start-up chunk holds it, and GraphQL answers from it', async () => {
    // what node reads before it listens: main.js and its static imports, the chunks src/start.ts
    // imports (start; database, app and subgraph-schema) and theirs; graphql-jit comes by import() of
    // src/graphql/jit.ts, started once the server listens (src/app.ts)
    const bundle = path.join(ROOT, 'dist', 'bundle');
    const read = new Set<string>();
    const visit = (file: string) => {
      if (read.has(file)) return;
      read.add(file);
      const code = readFileSync(file, 'utf8');
      for (const m of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w*{}\s,$]+from\s*)?"(\.[^"]+)"/g)) visit(path.resolve(path.dirname(file), m[1]!));
      for (const m of code.matchAll(/import\("(\.[^"]+)"\)/g)) {
        if (/\/(tracing|start|database|app|subgraph-schema)-\w+\.js$/.test(m[1]!)) visit(path.resolve(path.dirname(file), m[1]!));
      }
    };
    visit(path.join(bundle, 'main.js'));
    const startUp = [...read].map((file) => readFileSync(file, 'utf8'));
    expect(startUp.some((code) => defines(code, 'createApp'))).toBe(true); // the walk reached the service's modules
    expect(startUp.some((code) => defines(code, 'isCompiledQuery'))).toBe(false);
    const chunks = readdirSync(path.join(bundle, 'chunks')).filter((name) => name.endsWith('.js'));
    const jitChunk = chunks.find((name) => defines(readFileSync(path.join(bundle, 'chunks', name), 'utf8'), 'isCompiledQuery'));
    expect(jitChunk).toBeDefined();
    // loaded once it listens (in the background, or by the first document to compile; NODE_DEBUG=esm
    // names it), and used: a mutation is never answered by a SQL plan, so it runs compiled
    const key = await issueKey(service, 'jit-owner');
    const created = await call<{ data: { createProject: { name: string } } }>(service, 'POST', '/graphql', {
      key,
      body: { query: 'mutation { createProject(input: { name: "Compiled" }) { name } }' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ data: { createProject: { name: 'Compiled' } } });
    expect(service.stderr()).toContain(`/dist/bundle/chunks/${jitChunk}`);
  });

  it('holds one graphql, its ES modules: its version once, and no __toESM copy of its exports per importer', () => {
    // two copies would fail at run time ("Cannot use GraphQLSchema from another module or realm");
    // graphql's CommonJS files wrapped once per importing module cost ≈ 55 ms a start (scripts/graphql-esm.mjs)
    const bundle = path.join(ROOT, 'dist', 'bundle');
    const code = [bundle, path.join(bundle, 'chunks')].flatMap((dir) => readdirSync(dir).filter((name) => name.endsWith('.js')).map((name) => readFileSync(path.join(dir, name), 'utf8'))).join('\n');
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', 'graphql', 'package.json'), 'utf8')) as { version: string };
    // graphql/version.mjs: `version = "16.x.y"`, its variable's name minified
    expect(code.match(new RegExp(`[\\w$]+="${version.replaceAll('.', '\\.')}"`, 'g'))).toHaveLength(1);
    // and none of graphql's CommonJS files (wrapped by __toESM once per importer): the sources of the bundle's maps
    const sources = readdirSync(path.join(bundle, 'chunks')).filter((name) => name.endsWith('.js.map')).flatMap((name) => (JSON.parse(readFileSync(path.join(bundle, 'chunks', name), 'utf8')) as { sources: string[] }).sources);
    expect(sources.filter((source) => source.endsWith('/node_modules/graphql/version.mjs'))).toHaveLength(1);
    expect(sources.filter((source) => /\/node_modules\/graphql\/.*\.js$/.test(source))).toEqual([]);
  });

  it('loads node:https and node:tls on first use, not at start-up: ws and prom-client require them through a lazy module (scripts/lazy-builtin.cjs)', () => {
    const bundle = path.join(ROOT, 'dist', 'bundle');
    const code = [bundle, path.join(bundle, 'chunks')].flatMap((dir) => readdirSync(dir).filter((name) => name.endsWith('.js')).map((name) => readFileSync(path.join(dir, name), 'utf8'))).join('\n');
    expect(code.match(/require\("(node:)?(https|tls)"\)|from\s*"(node:)?(https|tls)"/g)).toBeNull();
    // the lazy module loads the built-in on the first read, and then reads as the built-in does
    const probe = spawnSync(process.execPath, ['-e', `
      const lazy = require(${JSON.stringify(path.join(ROOT, 'scripts', 'lazy-tls.cjs'))});
      const before = process.moduleLoadList.includes('NativeModule tls');
      const tls = require('tls');
      const same = lazy.connect === tls.connect && lazy.DEFAULT_MIN_VERSION === tls.DEFAULT_MIN_VERSION && Object.keys(lazy).join() === Object.keys(tls).join() && 'createSecureContext' in lazy;
      // a write through it reaches the built-in, and reads back (not a read-only copy on the Proxy)
      lazy.DEFAULT_MIN_VERSION = 'TLSv1.3';
      const written = tls.DEFAULT_MIN_VERSION === 'TLSv1.3' && lazy.DEFAULT_MIN_VERSION === 'TLSv1.3';
      console.log(JSON.stringify({ before, same, written, prototype: Object.getPrototypeOf(lazy) === Object.getPrototypeOf(tls) }));
    `], { encoding: 'utf8' });
    expect(JSON.parse(probe.stdout)).toEqual({ before: false, same: true, written: true, prototype: true });
  });

  it('is ASCII only (node decodes it faster; V8 keeps one-byte strings)', () => {
    const bundle = path.join(ROOT, 'dist', 'bundle');
    const files = [bundle, path.join(bundle, 'chunks')].flatMap((dir) => readdirSync(dir).filter((name) => name.endsWith('.js')).map((name) => path.join(dir, name)));
    expect(files.filter((file) => readFileSync(file).some((byte) => byte > 0x7f)).map((file) => path.basename(file))).toEqual([]);
  });
});
