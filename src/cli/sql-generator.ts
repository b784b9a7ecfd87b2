import 'reflect-metadata';
import { readdirSync } from 'node:fs';
import type { EntityManager } from '@mikro-orm/postgresql';
import { parse } from 'graphql';
import type pg from 'pg';
import type { Database } from '../db/database.js';
import { SAMPLE, type SqlSamples } from '../db/sql-samples.js';
import { DEFAULT_LIMITS } from '../graphql/limits/limits.js';
import { PLAN_SAMPLES } from '../graphql/sql-plan/plan-samples.js';
import { planQuery } from '../graphql/sql-plan/planner.js';
import { buildLedgerSchema } from '../graphql/schema.js';

/**
 * The SQL every class that owns SQL sends, committed as src/queries/*.sql so that a reviewer sees
 * SQL change in a diff (as Immich does with its sql-generator). Each repository file
 * (src/**\/*.repository.ts) declares its own sample calls (`SQL_SAMPLES`, src/db/sql-samples.ts);
 * the SQL plans' documents are src/graphql/sql-plan/plan-samples.ts. Each call runs against a new,
 * empty, migrated database through a `Database` that records every statement before sending it:
 * the calls go past their first statement as far as empty tables take them, and a statement that
 * PostgreSQL cannot parse or plan against the schema fails the generation. The same code on the
 * same migrations writes the same files. `npm run sql:generate` writes them; the drift test
 * (test/cli/sql-generator.test.ts) fails when they and the code differ.
 */

/** A statement as recorded: its text, and the name it is prepared under, if any. */
interface Captured {
  sql: string;
  name?: string;
}

/** One repository file: where it is, its generated file's name, and its samples. */
export interface SampledFile {
  source: string;
  output: string;
  samples: SqlSamples<object>;
}

const SOURCE_ROOT = 'src';

/** Every `*.repository.ts` under src/, sorted, with the samples it exports (a file without them fails). */
export async function sampledFiles(): Promise<SampledFile[]> {
  const sources = readdirSync(SOURCE_ROOT, { recursive: true, encoding: 'utf8' })
    .map((file) => file.replaceAll('\\', '/'))
    .filter((file) => file.endsWith('.repository.ts'))
    .sort();
  const files: SampledFile[] = [];
  for (const file of sources) {
    // relative to this module (src/cli/ or dist/src/cli/): the compiled sibling, or the source under jest
    const module = (await import(`../${file.replace(/\.ts$/, '.js')}`)) as { SQL_SAMPLES?: SqlSamples<object> };
    if (!module.SQL_SAMPLES) throw new Error(`sql-generator: ${SOURCE_ROOT}/${file} exports no SQL_SAMPLES (src/db/sql-samples.ts)`);
    files.push({ source: `${SOURCE_ROOT}/${file}`, output: file.split('/').at(-1)!.replace(/\.ts$/, '.sql'), samples: module.SQL_SAMPLES });
  }
  const outputs = files.map((f) => f.output);
  const twice = outputs.filter((name, i) => outputs.indexOf(name) !== i);
  if (twice.length) throw new Error(`sql-generator: two repository files would write ${twice.join(', ')}`);
  return files;
}

/**
 * Every generated file: its name in src/queries and its text. `db`: a new, migrated database
 * (nothing else writes to it meanwhile); `sampled`: every repository file's samples, by default.
 */
export async function generateQueries(db: Database, sampled?: SampledFile[]): Promise<Map<string, string>> {
  await assertEmpty(db);
  const files = new Map<string, string>();
  // one after the other, in a fixed order: a call that writes (most fail on a missing project) comes before the same later ones on every run
  for (const file of sampled ?? (await sampledFiles())) {
    const sections: string[] = [];
    for (const [label, call] of Object.entries(file.samples.calls)) {
      const { className, statements } = await runSample(db, file, label, call);
      sections.push(...statements.map((statement) => section(`${className}.${label}`, statement)));
    }
    files.set(file.output, header(file.source) + sections.join('\n'));
  }
  files.set('graphql.sql-plan.sql', header('src/graphql/sql-plan/planner.ts (planQuery) over the documents of src/graphql/sql-plan/plan-samples.ts') + (await planSections(db)).join('\n'));
  return files;
}

/** The statements one sample call sends, with the name of the class it was made on. */
async function runSample(db: Database, file: SampledFile, label: string, call: SqlSamples<object>['calls'][string]): Promise<{ className: string; statements: Captured[] }> {
  const where = `sql-generator: ${file.source}, sample "${label}"`;
  // as the callers of these statements hold them: inside their transaction (and nothing of it stays)
  const unitOfWork = db.em();
  await unitOfWork.begin();
  try {
    return await recordSample(db, unitOfWork, where, file, label, call);
  } finally {
    await unitOfWork.rollback();
  }
}

async function recordSample(db: Database, unitOfWork: EntityManager, where: string, file: SampledFile, label: string, call: SqlSamples<object>['calls'][string]): Promise<{ className: string; statements: Captured[] }> {
  const { database, em, statements } = recording(db, unitOfWork);
  const repository = file.samples.open(database, em) as Record<string, unknown>;
  const method = label.split(' ')[0];
  const original = repository[method];
  if (typeof original !== 'function') throw new Error(`${where} names no method of ${repository.constructor.name}`);
  let called = false;
  // an own property over the prototype's: shows that the sample calls the method it is named after
  repository[method] = function (this: unknown, ...args: unknown[]) {
    called = true;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
  try {
    await call(repository, { em, unrecorded: db });
  } catch (error) {
    if (!isDataError(error)) throw new Error(`${where} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (!called) throw new Error(`${where} does not call ${method}`);
  if (statements.length === 0) throw new Error(`${where} sent no statement (a method without SQL of its own belongs in unsampled)`);
  return { className: repository.constructor.name, statements };
}

/**
 * An error PostgreSQL raised about the data (a missing project's foreign key, a routine's refusal):
 * the sample's statements ran as far as empty tables take them. Not one about the statement
 * itself — class 42 (syntax, an unknown column, table or function), 0A (not supported), XX
 * (internal) — nor an error of the code.
 */
function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !/^(42|0A|XX)/.test(code);
}

/**
 * A Database (and a unit of work) that records each statement as the repository hands it over,
 * then sends it to `db` (or `unitOfWork`). Transactions are `db`'s own, recorded as the BEGIN, COMMIT and ROLLBACK
 * they send; clients taken from the pool record what is sent on them.
 */
function recording(db: Database, unitOfWork: EntityManager): { database: Database; em: EntityManager; statements: Captured[] } {
  const statements: Captured[] = [];
  const record = (sql: string, name?: string) => statements.push({ sql, name });
  const database: Database = {
    ...db,
    query: (text, params, name) => {
      record(text, name);
      return db.query(text, params, name);
    },
    async transaction(fn) {
      record('BEGIN');
      try {
        const result = await db.transaction((client) => fn(recordingClient(client, record)));
        record('COMMIT');
        return result;
      } catch (error) {
        record('ROLLBACK');
        throw error;
      }
    },
    async rolledBack(fn) {
      record('BEGIN');
      try {
        return await db.rolledBack(fn);
      } finally {
        record('ROLLBACK');
      }
    },
    pool: { connect: async () => recordingClient(await db.pool.connect(), record) } as unknown as pg.Pool,
  };
  const em = {
    execute: (sql: string, params?: unknown[]) => {
      record(sql);
      return unitOfWork.execute(sql, params);
    },
  } as unknown as EntityManager;
  return { database, em, statements };
}

/** `client` with its `query` recording the text (a string, a query config, or a submittable such as a QueryStream's cursor). */
function recordingClient(client: pg.PoolClient, record: (sql: string, name?: string) => void): pg.PoolClient {
  return new Proxy(client, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (key !== 'query') return typeof value === 'function' ? value.bind(target) : value;
      return (config: unknown, ...rest: unknown[]) => {
        const sent = config as { text?: string; name?: string; cursor?: { text?: string } };
        const text = typeof config === 'string' ? config : (sent.text ?? sent.cursor?.text);
        if (typeof text !== 'string') throw new Error('sql-generator: a statement whose text cannot be read');
        record(text, typeof config === 'string' ? undefined : sent.name);
        return (target.query as (...a: unknown[]) => unknown)(config, ...rest);
      };
    },
  });
}

/** The SQL plans of PLAN_SAMPLES, each run once (a plan PostgreSQL refuses fails the generation). */
async function planSections(db: Database): Promise<string[]> {
  const { schema } = await buildLedgerSchema();
  const sections: string[] = [];
  for (const [label, { document, variables }] of Object.entries(PLAN_SAMPLES)) {
    const plan = planQuery({ schema, document: parse(document), operationName: null, variables, ownerId: SAMPLE.owner, maxPageSize: DEFAULT_LIMITS.maxPageSize });
    if (!plan) throw new Error(`sql-generator: the SQL plans do not answer "${label}"`);
    await db.query(plan.sql, plan.params);
    sections.push(section(label, { sql: plan.sql }));
  }
  return sections;
}

/** A database with data would take other paths through the calls (rows found): the files would depend on it. */
async function assertEmpty(db: Database): Promise<void> {
  const [row] = await db.query<{ empty: boolean }>(`SELECT NOT EXISTS (SELECT 1 FROM projects) AND NOT EXISTS (SELECT 1 FROM api_keys) AS empty`);
  if (!row.empty) throw new Error('sql-generator: the database has projects or keys; it runs on a new, migrated one');
}

const header = (source: string): string =>
  `-- Generated by \`npm run sql:generate\` (src/cli/sql-generator.ts): do not edit by hand.\n` +
  `-- The SQL that ${source} sends, exactly as sent ($n and ? are its parameters).\n` +
  `-- test/cli/sql-generator.test.ts fails when this file and the code differ: regenerate, and review the difference.\n\n`;

const section = (label: string, { sql, name }: Captured): string => `-- ${label}${name ? ` (prepared as ${name})` : ''}\n${layout(sql)};\n`;

/** The statement's text with its code's indentation removed: the first line as is, the others dedented together; no trailing spaces or blank lines. */
function layout(sql: string): string {
  const lines = sql.split('\n').map((line) => line.trimEnd());
  while (lines.length && lines[0] === '') lines.shift();
  while (lines.length && lines.at(-1) === '') lines.pop();
  const [first, ...rest] = lines;
  const indents = rest.filter((line) => line !== '').map((line) => line.length - line.trimStart().length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return [first.trim(), ...rest.filter((line) => line !== '').map((line) => `  ${line.slice(cut)}`)].join('\n');
}
