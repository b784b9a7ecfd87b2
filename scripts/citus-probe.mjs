// What stands between the schema and Citus today (docs/decisions/citus-lane.md): starts a Citus
// cluster (a coordinator and two workers, scripts/citus-install.mjs's build), applies the project's
// migrations and routines on the coordinator as they are (local tables), then tries to distribute
// them — reference tables for the global ones, every other table by project — and reports each
// refusal by table and routine: a summary on stderr; the whole report as JSON (timings in seconds)
// with `--json` on stdout, with `--out <file>` in that file. Exits 0 whatever it finds: the
// findings are the output, not a verdict (the lane's tests are the verdict); it fails only when the
// cluster or the migrations fail. Run after `tsc` (it imports dist/), as `npm run test:citus` does.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCitus } from './citus-install.mjs';
import { startCitusCluster } from '../test/support/pg-server.mjs';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { migrate, openDatabase } = await import(path.join(ROOT, 'dist', 'src', 'db', 'database.js'));
const { createLogger } = await import(path.join(ROOT, 'dist', 'src', 'logger.js'));

/** The global tables (CONTRACT §25: plans, owners, keys): reference tables, a copy on every node. */
const REFERENCE = ['owners', 'api_keys', 'plans'];
/** The migrator's and the routine installer's own records: coordinator-local. */
const LOCAL = ['mikro_orm_migrations', 'db_routines'];

const report = { timings: {}, migrate: undefined, tables: [], asIs: [], withoutForeignKeys: [], foreignKeysReAdded: [], routines: [], clone: undefined };
const started = performance.now();
const seconds = (from) => Number(((performance.now() - from) / 1000).toFixed(2));
const time = async (name, fn) => {
  const from = performance.now();
  try {
    return await fn();
  } finally {
    report.timings[name] = seconds(from);
  }
};

const { pgBin } = await time('citusInstall', () => ensureCitus());
const cluster = await time('clusterStart', () => startCitusCluster({ pgBin }));
const logger = createLogger('error');
try {
  const { coordinator } = cluster;
  await time('databaseCreate', () => cluster.createDatabase('ledger'));
  report.migrate = await time('migrate', () => migrateOn(coordinator.url('ledger')));
  if (!report.migrate.ok) throw new Error(`migrations failed on the Citus coordinator: ${report.migrate.error}`);
  await time('databaseClone', () => cluster.cloneDatabase('ledger', 'ledger_probe'));
  const sql = (statement, params) => coordinator.query('ledger_probe', statement, params);
  report.tables = await tableShapes(sql);
  report.asIs = await time('distributeAsIs', () => distribute(sql, report.tables));

  // the same on a fresh copy with every foreign key dropped first, as a migration would have to:
  // what still refuses is the keys; then the foreign keys put back, one by one
  await time('databaseClone2', () => cluster.cloneDatabase('ledger', 'ledger_probe_nofk'));
  const sql2 = (statement, params) => coordinator.query('ledger_probe_nofk', statement, params);
  const foreignKeys = await sql2(
    `SELECT conrelid::regclass::text AS "table", conname AS name, pg_get_constraintdef(oid) AS definition
       FROM pg_constraint WHERE contype = 'f' AND connamespace = 'public'::regnamespace ORDER BY 1, 2`,
  );
  for (const fk of foreignKeys) await sql2(`ALTER TABLE ${fk.table} DROP CONSTRAINT ${fk.name}`);
  report.withoutForeignKeys = await time('distributeWithoutForeignKeys', () => distribute(sql2, report.tables));
  for (const fk of foreignKeys) {
    const outcome = await attempt(() => sql2(`ALTER TABLE ${fk.table} ADD CONSTRAINT ${fk.name} ${fk.definition}`));
    if (!outcome.ok) report.foreignKeysReAdded.push({ table: fk.table, constraint: fk.name, definition: fk.definition, error: outcome.error });
  }
  report.routines = await time('routines', () => routines(sql2));
  report.clone = await time('cloneOfDistributed', () => cloneCheck(cluster));
} finally {
  await cluster.stop();
}
report.timings.total = seconds(started);
const json = `${JSON.stringify(report, null, 2)}\n`;
const out = process.argv.indexOf('--out');
if (out > 0) writeFileSync(process.argv[out + 1], json);
if (process.argv.includes('--json')) process.stdout.write(json);
summarise();

async function migrateOn(url) {
  const db = await openDatabase(url, logger, 2);
  try {
    const applied = await migrate(db, logger);
    return { ok: true, applied: applied.length };
  } catch (error) {
    return { ok: false, error: error.message };
  } finally {
    await db.close();
  }
}

/** Every table: its project column, and the keys and foreign keys that do not include it. */
async function tableShapes(sql) {
  const rows = await sql(
    `SELECT c.relname AS "table",
            EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'project_id' AND NOT a.attisdropped) AS "hasProjectId",
            ARRAY(SELECT k.conname || ' ' || pg_get_constraintdef(k.oid) FROM pg_constraint k
                   WHERE k.conrelid = c.oid AND k.contype IN ('p', 'u', 'x')
                     AND NOT EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'project_id' AND a.attnum = ANY (k.conkey))
                   ORDER BY 1) AS "keysWithoutProject",
            ARRAY(SELECT i.indexrelid::regclass::text FROM pg_index i
                   WHERE i.indrelid = c.oid AND i.indisunique
                     AND NOT EXISTS (SELECT FROM pg_constraint k WHERE k.conindid = i.indexrelid)
                     AND NOT EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'project_id' AND a.attnum = ANY (i.indkey))
                   ORDER BY 1) AS "uniqueIndexesWithoutProject",
            ARRAY(SELECT k.conname || ' ' || pg_get_constraintdef(k.oid) FROM pg_constraint k
                   WHERE k.conrelid = c.oid AND k.contype = 'f'
                     AND NOT EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'project_id' AND a.attnum = ANY (k.conkey))
                   ORDER BY 1) AS "foreignKeysWithoutProject",
            ARRAY(SELECT a.attname || ' ' || format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
                   WHERE a.attrelid = c.oid AND a.attidentity <> '' AND NOT a.attisdropped ORDER BY 1) AS "identityColumns"
       FROM pg_class c
      WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      ORDER BY 1`,
  );
  return rows.filter((row) => !LOCAL.includes(row.table)).map((row) => ({ ...row, plan: plan(row) }));
}

/** What the table would become: a reference table, `projects` by its id, the rest by project_id. */
function plan(row) {
  if (REFERENCE.includes(row.table)) return 'reference';
  if (row.table === 'projects') return 'distributed by id';
  return row.hasProjectId ? 'distributed by project_id' : 'no project column';
}

/** Tries each table in turn (reference tables first, `projects` next: the others co-locate with it). */
async function distribute(sql, tables) {
  const ordered = [...tables].sort((a, b) => rank(a) - rank(b) || a.table.localeCompare(b.table));
  const outcomes = [];
  for (const table of ordered) {
    const from = performance.now();
    let outcome;
    if (table.plan === 'reference') outcome = await attempt(() => sql('SELECT create_reference_table($1)', [table.table]));
    else if (table.plan === 'distributed by id') outcome = await attempt(() => sql(`SELECT create_distributed_table('projects', 'id')`));
    // co-location by Citus's default (same column type, same shard count), not named after
    // `projects`: a refusal of `projects` would otherwise hide every other table's own
    else if (table.plan === 'distributed by project_id') outcome = await attempt(() => sql(`SELECT create_distributed_table($1, 'project_id')`, [table.table]));
    else outcome = { ok: false, error: 'no project_id column' };
    outcomes.push({ table: table.table, plan: table.plan, ...outcome, seconds: seconds(from) });
  }
  return outcomes;
}

function rank(table) {
  return table.plan === 'reference' ? 0 : table.plan === 'distributed by id' ? 1 : 2;
}

/** The installed routines: their language and arguments, and whether Citus takes each as a function distributed by its project argument. */
async function routines(sql) {
  const rows = await sql(
    `SELECT p.oid::regprocedure::text AS signature, l.lanname AS language, p.proargnames AS "argumentNames"
       FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
      WHERE p.pronamespace = 'public'::regnamespace AND p.proname IN (SELECT name FROM db_routines)
      ORDER BY 1`,
  );
  const outcomes = [];
  for (const row of rows) {
    const names = row.argumentNames ?? [];
    const index = names.findIndex((name) => /project/.test(name));
    if (index < 0) {
      outcomes.push({ routine: row.signature, language: row.language, ok: false, error: 'no project argument to distribute by' });
      continue;
    }
    const outcome = await attempt(() => sql(`SELECT create_distributed_function($1::regprocedure, $2)`, [row.signature, `$${index + 1}`]));
    outcomes.push({ routine: row.signature, language: row.language, argument: names[index], ...outcome });
  }
  return outcomes;
}

/**
 * Whether a database with distributed tables survives `CREATE DATABASE … TEMPLATE` made on every
 * node at once (the lane's per-file databases): the copy's coordinator must find its shards on the
 * workers' copies.
 */
async function cloneCheck({ coordinator, cloneDatabase }) {
  await cloneDatabase('ledger_probe_nofk', 'ledger_probe_copy');
  const [distributed] = await coordinator.query('ledger_probe_copy', `SELECT logicalrelid::text AS "table" FROM pg_dist_partition WHERE partmethod = 'h' ORDER BY 1 LIMIT 1`);
  if (!distributed) return { ok: false, error: 'no distributed table to read' };
  const outcome = await attempt(() => coordinator.query('ledger_probe_copy', `SELECT count(*)::int AS count FROM ${distributed.table}`));
  const [shards] = await coordinator.query('ledger_probe_copy', 'SELECT count(*)::int AS count FROM citus_shards');
  return { table: distributed.table, shards: shards.count, ...outcome };
}

async function attempt(fn) {
  try {
    await fn();
    return { ok: true };
  } catch (error) {
    // Citus says which constraint or column in the detail; a worker's refusal comes with its context
    return { ok: false, error: [error.message, error.detail, error.hint, error.where].filter(Boolean).join(' | ') };
  }
}

function summarise() {
  const failed = (list) => list.filter((item) => !item.ok);
  const lines = [
    `citus probe: cluster started in ${report.timings.clusterStart} s; migrations on the coordinator ${report.migrate.ok ? `applied (${report.migrate.applied})` : 'FAILED'} in ${report.timings.migrate} s`,
    `a database: created on 3 nodes with the extension in ${report.timings.databaseCreate} s, cloned from a template on 3 nodes in ${report.timings.databaseClone} s`,
    `tables: ${report.tables.length}; distributed as they are: ${report.asIs.length - failed(report.asIs).length}; with the foreign keys dropped first: ${report.withoutForeignKeys.length - failed(report.withoutForeignKeys).length}; foreign keys refused when put back: ${report.foreignKeysReAdded.length}`,
    ...failed(report.withoutForeignKeys).map((item) => `  ${item.table} (${item.plan}): ${item.error}`),
    ...report.foreignKeysReAdded.map((item) => `  foreign key ${item.table}.${item.constraint} put back: ${item.error}`),
    `routines: ${report.routines.length}; taken as distributed functions: ${report.routines.filter((item) => item.ok).length}`,
    ...failed(report.routines).map((item) => `  ${item.routine.split('(')[0]} (${item.language}): ${item.error.split(' | ')[0]}`),
    `a copy of a distributed database made on every node: ${report.clone.ok ? `reads (${report.clone.shards} shards)` : `FAILED: ${report.clone.error}`}`,
  ];
  process.stderr.write(`${lines.join('\n')}\n`);
}
