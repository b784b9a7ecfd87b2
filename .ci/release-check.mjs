// The release path, on a clean copy (the Dockerfile runs the same steps):
//   1. `npm run build` compiles dist/;
//   2. scripts/stage-release.mjs stages dist/, the run-time files and the production
//      node_modules (dev dependencies pruned, no TypeScript compiler) in a temp directory;
//   3. there, `npm start`'s build check (buildIfStale() of scripts/build.mjs, which scripts/start.mjs runs) finds the build current and compiles nothing;
//   4. the service starts as the image's CMD does (`node dist/src/main.js`) on the embedded
//      database, answers GET /readyz 200, and exits 0 on SIGTERM.
// Run through npm (`npm run release:check`): its PATH has the project's Node 24 first.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const NODE = process.execPath;
const started = Date.now();
const tmp = mkdtempSync(path.join(tmpdir(), 'ledger-release-'));
// the embedded PostgreSQL runs as `postgres` when we are root: it must traverse this directory
chmodSync(tmp, 0o755);
const release = path.join(tmp, 'app');

try {
  await step('npm run build', () => run('npm', ['run', '--silent', 'build'], ROOT));
  await step('stage the release', () => run(NODE, [path.join(ROOT, 'scripts', 'stage-release.mjs'), release], ROOT));
  await step('no compiler, no dev dependency, no TypeScript source', () => {
    for (const absent of ['node_modules/typescript', 'node_modules/.bin/tsc', 'node_modules/jest', 'node_modules/node']) {
      if (existsSync(path.join(release, absent))) throw new Error(`${absent} is in the release`);
    }
    const sources = listFiles(path.join(release, 'src')).filter((file) => file.endsWith('.ts'));
    if (sources.length) throw new Error(`TypeScript sources in the release: ${sources.join(', ')}`);
  });
  await step('`npm start`\'s build check compiles nothing', () => {
    const before = snapshot(path.join(release, 'dist'));
    const out = run(NODE, ['scripts/build.mjs', '--if-stale'], release, releaseEnv());
    if (out.trim()) throw new Error(`the build check printed: ${out}`);
    if (snapshot(path.join(release, 'dist')) !== before) throw new Error('the build check changed dist/');
  });
  await step('start on the embedded database, GET /readyz 200, SIGTERM → exit 0', () => startAndStop());
  process.stdout.write(`release check passed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

async function startAndStop() {
  const env = { ...releaseEnv(), PORT: '0', HOST: '127.0.0.1', LEDGER_DATA_DIR: path.join(tmp, 'data'), LOG_LEVEL: 'warn', MALLOC_ARENA_MAX: '2' };
  for (const name of ['DATABASE_URL', 'NODE_OPTIONS', 'NODE_ENV', 'LEDGER_AUTO_MIGRATE']) delete env[name];
  const child = spawn(NODE, ['--max-semi-space-size=16', '--heap-growing-percent=50', 'dist/src/main.js'], { cwd: release, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  const exited = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    exited.then((exit) => reject(new Error(`the service exited before listening (${JSON.stringify(exit)}):\n${out}\n${err}`)));
  });
  try {
    const res = await fetch(`${url}/readyz`);
    if (res.status !== 200) throw new Error(`GET /readyz answered ${res.status}: ${await res.text()}`);
  } finally {
    child.kill('SIGTERM');
  }
  const exit = await exited;
  if (exit.code !== 0) throw new Error(`SIGTERM: exit ${JSON.stringify(exit)}\n${err}`);
}

/** The environment of a host with Node 24 and no project checkout: no node_modules/.bin (npm put the project's, with its tsc, on PATH). */
function releaseEnv() {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('npm_')) delete env[name];
  env.PATH = [path.dirname(NODE), ...(env.PATH ?? '').split(path.delimiter).filter((dir) => !dir.includes('node_modules'))].join(path.delimiter);
  return env;
}

async function step(name, action) {
  const at = Date.now();
  try {
    await action();
  } catch (error) {
    process.stderr.write(`✗ ${name}: ${error.message}\n`);
    process.exitCode = 1;
    throw error;
  }
  process.stdout.write(`✓ ${name} (${((Date.now() - at) / 1000).toFixed(1)} s)\n`);
}

function run(command, args, cwd, env = process.env) {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status ?? result.signal}\n${result.stdout}`);
  return result.stdout;
}

function listFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? listFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
}

/** Every file of `dir` with its size and modification time. */
function snapshot(dir) {
  return listFiles(dir)
    .map((file) => `${file} ${statSync(file).size} ${statSync(file).mtimeMs}`)
    .join('\n');
}
