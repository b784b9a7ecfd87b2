// Makes Citus usable by Debian's PostgreSQL 15 for the test lanes (docs/decisions/citus-lane.md):
// PostgreSQL 15's server and Citus's build dependencies from apt when missing (as root, as CI runs),
// Citus built from the vendored source (vendor/citus/) into a cache OUTSIDE the clone, keyed by the
// Citus version, `pg_config --version` and the archive's sha256, then copied into PostgreSQL's
// directories. A second run finds the build in the cache and the same files installed: it runs no
// compiler and copies nothing (about a second, most of it dpkg-query and pg_config).
//
// `node scripts/citus-install.mjs` runs it and prints what it did; the lanes' global set-up imports
// ensureCitus(). Idempotent: safe to run any number of times, and two at once (each builds in its own
// directory; the first rename wins).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const CITUS_VERSION = '13.2.2';
const ARCHIVE = path.join(ROOT, 'vendor', 'citus', `citus-${CITUS_VERSION}-trim.tar.xz`);
const ARCHIVE_SHA256 = '5f0003e9eee7353be8cf236f970f067f82bedb603ad5cdd73ea32eab6ebd5bce';
/** Debian's PostgreSQL 15: the newest Citus 13 supports that Debian 12 ships. */
export const PG_BIN = '/usr/lib/postgresql/15/bin';
// libzstd-dev and libkrb5-dev: PostgreSQL 15's own headers need them (its pg_config.h sets
// HAVE_LIBZSTD); configure does not ask for them (vendor/citus/README.md)
const PACKAGES = ['postgresql-15', 'postgresql-server-dev-15', 'libzstd-dev', 'liblz4-dev', 'libkrb5-dev', 'gcc', 'make', 'xz-utils', 'patch'];
/**
 * Applied to the source before configure, in name order (vendor/citus/patches/): the build must
 * follow Debian's PostgreSQL 15 minor releases, which apt upgrades when it installs the headers.
 */
const PATCHES = path.join(ROOT, 'vendor', 'citus', 'patches');
const CONFIGURE = ['--without-libcurl']; // libcurl only feeds Citus's usage statistics
const MAKE = ['-j2', 'with_llvm=no']; // with_llvm=yes doubles the build for JIT bitcode nobody runs here

/** Where builds are kept: outside the clone, so a fresh clone (or `git clean`) does not rebuild. */
export function cacheBase(env = process.env) {
  return env.LEDGER_CITUS_CACHE ?? path.join(env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'ledger-citus');
}

/**
 * Ensures PostgreSQL 15 with Citus installed; returns what it did and how long each step took
 * (seconds). `log` receives one line per step (stderr by default).
 */
export function ensureCitus({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const timings = {};
  const time = (name, fn) => {
    const started = performance.now();
    try {
      return fn();
    } finally {
      timings[name] = Number(((performance.now() - started) / 1000).toFixed(2));
    }
  };
  const installedPackages = time('packages', () => ensurePackages(log));
  const pgVersion = execFileSync(path.join(PG_BIN, 'pg_config'), ['--version'], { encoding: 'utf8' }).trim();
  const archiveSha = time('archive', () => sha256(readFileSync(ARCHIVE)));
  if (archiveSha !== ARCHIVE_SHA256) throw new Error(`${ARCHIVE} has sha256 ${archiveSha}, expected ${ARCHIVE_SHA256}`);
  const patches = patchFiles().map((file) => ({ name: path.basename(file), sha256: sha256(readFileSync(file)) }));
  const key = createHash('sha256')
    .update(JSON.stringify({ citus: CITUS_VERSION, pg: pgVersion, archive: archiveSha, patches, configure: CONFIGURE, make: MAKE }))
    .digest('hex')
    .slice(0, 16);
  const base = cacheBase();
  const dir = path.join(base, key);
  let built = false;
  if (!cached(dir, key)) {
    log(`citus: building ${CITUS_VERSION} for ${pgVersion} into ${dir} (about 1-2 min)`);
    time('build', () => build(base, dir, key, pgVersion, patches));
    built = true;
  }
  const copied = time('install', () => install(dir));
  log(`citus: ${built ? 'built' : 'cached build'} ${dir}; ${copied ? `${copied} files copied into PostgreSQL` : 'already installed'}`);
  return { key, dir, pgVersion, pgBin: PG_BIN, installedPackages, built, copied, timings };
}

/** Debian's PostgreSQL 15 server alone (the pg15 lane), installed when missing. */
export function ensurePostgres15({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  ensurePackages(log, ['postgresql-15']);
  return PG_BIN;
}

/** Installs the missing packages with apt-get (root only; otherwise says what to run). */
function ensurePackages(log, packages = PACKAGES) {
  const missing = packages.filter((name) => !packageInstalled(name));
  if (missing.length === 0) return [];
  const command = `apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (userInfo().uid !== 0) throw new Error(`PostgreSQL 15 or Citus's build dependencies are missing; as root run: ${command}`);
  log(`installing ${missing.join(' ')}`);
  // another process holding dpkg's lock (another lane, another helper) is waited for, not failed on
  const lock = ['-o', 'DPkg::Lock::Timeout=600'];
  run('apt-get', [...lock, 'update'], {});
  run('apt-get', [...lock, 'install', '-y', '--no-install-recommends', ...missing], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return missing;
}

function packageInstalled(name) {
  const result = spawnSync('dpkg-query', ['-W', '-f=${db:Status-Status}', name], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.trim() === 'installed';
}

/** True when `dir` holds the whole build of `key` (its manifest is written last). */
function cached(dir, key) {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')).key === key;
  } catch {
    return false;
  }
}

/**
 * configure, make, and `make install` into `<dir>/root` (DESTDIR): the files PostgreSQL needs,
 * at their paths below `root`. Built in a staging directory renamed to `dir` once whole.
 */
function build(base, dir, key, pgVersion, patches) {
  mkdirSync(base, { recursive: true });
  const staging = path.join(base, `.build-${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(staging);
  try {
    run('tar', ['-xJf', ARCHIVE, '-C', staging], {});
    const source = path.join(staging, `citus-${CITUS_VERSION}`);
    for (const file of patchFiles()) run('patch', ['-p1', '--forward', '--input', file], { cwd: source });
    const env = { ...process.env, PG_CONFIG: path.join(PG_BIN, 'pg_config') };
    run('./configure', CONFIGURE, { cwd: source, env });
    run('make', MAKE, { cwd: source, env });
    run('make', ['install', 'with_llvm=no', `DESTDIR=${path.join(staging, 'root')}`], { cwd: source, env });
    rmSync(source, { recursive: true, force: true }); // the objects are not needed again: the installed files are the cache
    const files = listFiles(path.join(staging, 'root'));
    writeFileSync(path.join(staging, 'manifest.json'), `${JSON.stringify({ key, citus: CITUS_VERSION, pg: pgVersion, archive: ARCHIVE_SHA256, patches, configure: CONFIGURE, make: MAKE, files }, null, 2)}\n`);
    try {
      renameSync(staging, dir);
    } catch (error) {
      if (!cached(dir, key)) throw error; // else another run's build came first: the same files
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function patchFiles() {
  return existsSync(PATCHES) ? readdirSync(PATCHES).filter((name) => name.endsWith('.patch')).sort().map((name) => path.join(PATCHES, name)) : [];
}

/** Copies the cached files whose installed copy is missing or differs; returns how many were copied. */
function install(dir) {
  const { files } = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  const root = path.join(dir, 'root');
  const stale = files.filter((file) => !sameFile(path.join(root, file), path.join('/', file)));
  if (stale.length === 0) return 0;
  if (userInfo().uid !== 0) throw new Error(`Citus is not installed into PostgreSQL 15; as root run: cp -a ${root}/. /`);
  run('cp', ['-a', `${root}/.`, '/'], {});
  return stale.length;
}

function sameFile(a, b) {
  if (!existsSync(b) || statSync(a).size !== statSync(b).size) return false;
  return sha256(readFileSync(a)) === sha256(readFileSync(b));
}

/** Paths of the regular files below `root`, relative to it. */
function listFiles(root, prefix = '') {
  return readdirSync(path.join(root, prefix), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(prefix, entry.name);
    return entry.isDirectory() ? listFiles(root, relative) : [relative];
  });
}

function sha256(buffer) {
  return createHash('sha256').update(buffer).digest('hex');
}

/** Runs a command; on failure throws with the tail of its output (a build log is long). */
function run(command, args, options) {
  const result = spawnSync(command, args, { ...options, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.split('\n').slice(-40).join('\n');
    throw new Error(`${command} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${output}`);
  }
  return result.stdout;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const result = ensureCitus();
  const { files, ...rest } = result;
  process.stdout.write(`${JSON.stringify({ ...rest, seconds: Number(((performance.now() - started) / 1000).toFixed(2)) }, null, 2)}\n`);
}
