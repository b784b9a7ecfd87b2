// Stages what the service runs from into an empty directory: the compiled dist/ (src and
// migrations), the files it reads at run time (SQL routines, browser pages), package.json with
// its lock, and the production node_modules. The Dockerfile and the CI release check
// (.ci/release-check.mjs) both run it after `npm run build`, so the image holds what CI started.
//
//   node scripts/stage-release.mjs <empty or missing directory>
//
// node_modules: the installed tree is copied (hard links when on one file system: seconds instead
// of a download), then `npm prune --omit=dev` removes the dev dependencies. npm keeps
// `typescript` even then, because optional peers of @scalar/api-reference's Vue components name
// it; the service only serves Scalar's prebuilt browser bundle, so the compilers are removed.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const target = process.argv[2];
if (!target) fail('usage: node scripts/stage-release.mjs <directory>');
const OUT = path.resolve(target);
if (existsSync(OUT) && readdirSync(OUT).length) fail(`${OUT} is not empty`);
if (!existsSync(path.join(ROOT, 'dist', 'src', 'main.js'))) fail('dist/ is missing: run `npm run build` first');
if (!existsSync(path.join(ROOT, 'node_modules'))) fail('node_modules is missing: run `npm ci` first');

mkdirSync(OUT, { recursive: true });
// build.mjs imports graphql-esm.mjs (its bundle's aliases) even when it only checks staleness
for (const file of ['package.json', 'package-lock.json', 'LICENSE', 'scripts/build.mjs', 'scripts/graphql-esm.mjs', 'scripts/start.mjs', 'dist/.build-stamp']) {
  if (!existsSync(path.join(ROOT, file))) continue;
  mkdirSync(path.dirname(path.join(OUT, file)), { recursive: true });
  copyFileSync(path.join(ROOT, file), path.join(OUT, file));
}
for (const dir of ['dist/src', 'dist/migrations']) cpSync(path.join(ROOT, dir), path.join(OUT, dir), { recursive: true });
copyRuntimeFiles(path.join(ROOT, 'src'), path.join(OUT, 'src'));

const modules = path.join(OUT, 'node_modules');
const linked = spawnSync('cp', ['-al', realpathSync(path.join(ROOT, 'node_modules')), modules], { stdio: 'ignore' });
if (linked.status !== 0) {
  rmSync(modules, { recursive: true, force: true });
  cpSync(realpathSync(path.join(ROOT, 'node_modules')), modules, { recursive: true, verbatimSymlinks: true });
}
// npm rewrites its hidden lockfile in place: a hard link would change the source tree's copy
const hiddenLock = path.join(modules, '.package-lock.json');
if (existsSync(hiddenLock)) {
  rmSync(hiddenLock);
  copyFileSync(path.join(ROOT, 'node_modules', '.package-lock.json'), hiddenLock);
}
run('npm', ['prune', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error']);
removeCompilers(modules);
process.stdout.write(`staged the release in ${OUT}\n`);

/** Every file of src/ that is not TypeScript (read at run time through projectRoot()). */
function copyRuntimeFiles(from, to) {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) copyRuntimeFiles(source, path.join(to, entry.name));
    else if (!entry.name.endsWith('.ts')) {
      mkdirSync(to, { recursive: true });
      copyFileSync(source, path.join(to, entry.name));
    }
  }
}

/** `typescript` (and TypeScript 7's native `@typescript/*` binaries) wherever npm placed them. */
function removeCompilers(modulesDir) {
  for (const entry of readdirSync(modulesDir, { withFileTypes: true })) {
    const full = path.join(modulesDir, entry.name);
    if (!entry.isDirectory()) continue;
    if (entry.name === 'typescript' || entry.name === '@typescript') rmSync(full, { recursive: true });
    else if (entry.name === '.bin') for (const bin of ['tsc', 'tsserver']) rmSync(path.join(full, bin), { force: true });
    else if (entry.name.startsWith('@')) for (const scoped of readdirSync(full)) removeNestedCompilers(path.join(full, scoped));
    else removeNestedCompilers(full);
  }
}

function removeNestedCompilers(packageDir) {
  if (existsSync(path.join(packageDir, 'node_modules'))) removeCompilers(path.join(packageDir, 'node_modules'));
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: OUT, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) fail(`${command} ${args.join(' ')} failed (${result.status ?? result.signal})`);
}

function fail(message) {
  process.stderr.write(`stage-release: ${message}\n`);
  process.exit(1);
}
