// Makes the cluster template of the build (src/db/cluster-template.ts; run by scripts/build.mjs after
// the compile, in a process of its own): dist/cluster-template/<key>/pg, the cluster a first
// `npm start` would make — initdb, the `ledger` database, every migration and routine — by the
// same code (startEmbeddedPostgres with the template off, then migrate()), shut down cleanly, and
// `current`, the key a start looks for. A build whose key has a template already reuses it (a
// hash of about 60 files: milliseconds). LEDGER_CLUSTER_TEMPLATE=false: none made.
//
// The cluster is made in a directory of its own under the system's temporary directory (as root,
// PostgreSQL runs as `postgres`, which may not reach the project: e.g. under /root), copied into
// dist/cluster-template/.tmp-<pid>-<random>/, fsynced, and renamed to <key> once whole with its manifest:
// two builds at once each make their own and the first rename wins; a build killed midway
// leaves a .tmp- directory that no start ever reads (the next build removes it).
//
// Never fails the build: without a template a first start runs initdb, as it always could.
// Writes on stderr only (`npm run apikey` prints a key on stdout).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const DIST = path.join(ROOT, 'dist', 'src', 'db');

const setting = process.env.LEDGER_CLUSTER_TEMPLATE;
if (setting === 'false' || setting === '0') process.exit(0);

try {
  const made = await prepare();
  if (made) process.stderr.write(`cluster template made in ${made.seconds.toFixed(1)} s: ${path.relative(ROOT, made.dir)}\n`);
} catch (error) {
  process.stderr.write(`no cluster template (a first start runs initdb instead): ${error instanceof Error ? error.stack : String(error)}\n`);
}

async function prepare() {
  const { syncDirectory, templateInputs, templateKey, templatesDir, TEMPLATE_FORMAT } = await import(path.join(DIST, 'cluster-template.js'));
  const { clusterSignature, postgresVersion, syncClusterFiles } = await import(path.join(DIST, 'embedded-postgres.js'));
  const base = templatesDir(ROOT);
  const postgres = await postgresVersion();
  const cluster = clusterSignature();
  const key = templateKey(postgres, cluster, ROOT);
  const target = path.join(base, key);
  let made;
  if (!current(target, key)) {
    const startedAt = performance.now();
    const work = mkdtempSync(path.join(tmpdir(), 'ledger-cluster-template-'));
    chmodSync(work, 0o755); // as root, postgres reaches its directory inside
    try {
      await makeCluster(path.join(work, 'data'));
      const staging = path.join(base, `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
      mkdirSync(staging, { recursive: true });
      copy(path.join(work, 'data', 'pg'), path.join(staging, 'pg'));
      // on disk before it is published: a power loss after the build must not leave a manifest
      // (and `current`) naming a cluster whose files the kernel never wrote, for starts to copy
      await syncClusterFiles(path.join(staging, 'pg'));
      const manifest = { format: TEMPLATE_FORMAT, key, postgres, cluster, inputs: templateInputs(ROOT) };
      writeFileSync(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, { flush: true });
      syncDirectory(staging);
      try {
        renameSync(staging, target);
        syncDirectory(base);
        made = { dir: target, seconds: (performance.now() - startedAt) / 1000 };
      } catch (error) {
        rmSync(staging, { recursive: true, force: true });
        if (!current(target, key)) throw error; // else another build's came first: the same cluster
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const pointer = path.join(base, `.current-${process.pid}`);
  writeFileSync(pointer, `${key}\n`, { flush: true });
  renameSync(pointer, path.join(base, 'current'));
  syncDirectory(base);
  prune(base, key);
  return made;
}

/** True when `target` holds the whole template of `key` (its manifest is written last). */
function current(target, key) {
  try {
    return JSON.parse(readFileSync(path.join(target, 'manifest.json'), 'utf8')).key === key;
  } catch {
    return false;
  }
}

/** The cluster of a first start, by the service's own code, shut down cleanly (a checkpoint, no WAL to replay). */
async function makeCluster(dataDir) {
  const { startEmbeddedPostgres } = await import(path.join(DIST, 'embedded-postgres.js'));
  const { migrate, openDatabase } = await import(path.join(DIST, 'database.js'));
  const { pino } = await import('pino');
  const logger = pino({ level: 'warn', base: { service: 'ledger' } }, pino.destination(2));
  const cluster = await startEmbeddedPostgres(dataDir, logger, undefined, undefined, { template: false });
  try {
    const db = await openDatabase(cluster.url, logger, 2);
    try {
      await migrate(db, logger);
    } finally {
      await db.close();
    }
  } finally {
    await cluster.stop();
  }
}

/** `cp -a`: owners (as root, `postgres`) and modes kept. */
function copy(from, to) {
  const result = spawnSync('cp', ['-a', from, to], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`cp -a ${from} ${to} failed: ${result.stderr}`);
}

/** Removes the templates of other keys and the staging directories of builds no longer running. */
function prune(base, key) {
  for (const name of readdirSync(base)) {
    if (name === key || name === 'current') continue;
    const staging = /^\.(?:tmp|current)-(\d+)/.exec(name);
    if (staging && running(Number(staging[1]))) continue;
    rmSync(path.join(base, name), { recursive: true, force: true });
  }
}

function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
