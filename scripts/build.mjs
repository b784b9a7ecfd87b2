// Compiles the service into dist/ (tsconfig.build.json) and stamps the build.
//
//   node scripts/build.mjs             always compile (npm run build)
//   node scripts/build.mjs --if-stale  compile only when a source is newer than the last build
//                                      (migrate, apikey: no compile when dist/ is current)
//   buildIfStale()                     the same, in the caller's process (scripts/start.mjs: npm start)
//
// A production install has no TypeScript sources and may have no compiler: there dist/ is current
// by definition, so --if-stale never needs `tsc`. Plain JavaScript with no dependencies, so it runs
// before anything is compiled. Compiler output goes to stderr (`npm run apikey` prints a key on stdout).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const STAMP = path.join(ROOT, 'dist', '.build-stamp');
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');
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
  // the stamp carries the time the compile started: a source saved during the compile is newer
  writeFileSync(STAMP, `${new Date(startedAt).toISOString()}\n`);
  utimesSync(STAMP, startedAt / 1000, startedAt / 1000);
  return 0;
}

/** True when dist/ has no entry point, or some TypeScript source or tsconfig is newer than the stamp. */
function stale() {
  if (!existsSync(MAIN)) return true;
  const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
  for (const file of CONFIGS) {
    const full = path.join(ROOT, file);
    if (existsSync(full) && statSync(full).mtimeMs > built) return true;
  }
  return SOURCE_DIRS.some((dir) => newerSource(path.join(ROOT, dir), built));
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
