import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript5';
import { generateQueries, sampledFiles, type SampledFile } from '../../src/cli/sql-generator.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { sqlSamples } from '../../src/db/sql-samples.js';
import { createLogger } from '../../src/logger.js';
import { createTestDatabase } from '../support/database.js';

/**
 * The drift test of src/queries/*.sql: the committed SQL of every repository is exactly what the
 * code sends now, and every public method of every repository has a sample call (declared in the
 * repository's own file, `SQL_SAMPLES`) or a reason it has none. A change to a repository's or a
 * plan's SQL fails here until the files are regenerated (`npm run sql:generate`), so the SQL
 * change shows in the diff a reviewer reads; a new method fails here until it has its sample.
 */

/**
 * The public methods of each exported class in a TypeScript source (neither private, protected nor
 * static; arrow-function properties included). A class the file does not export is a helper of the
 * exported one (the search's `Params`), reached only through it.
 */
function publicMethods(fileName: string, text: string): Map<string, string[]> {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const classes = new Map<string, string[]>();
  for (const statement of source.statements) {
    if (!ts.isClassDeclaration(statement) || !statement.name || !(ts.getCombinedModifierFlags(statement) & ts.ModifierFlags.Export)) continue;
    const methods = statement.members.filter((member) => {
      const hidden = ts.getCombinedModifierFlags(member) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected | ts.ModifierFlags.Static);
      const callable = ts.isMethodDeclaration(member) || (ts.isPropertyDeclaration(member) && !!member.initializer && (ts.isArrowFunction(member.initializer) || ts.isFunctionExpression(member.initializer)));
      return callable && !hidden && !!member.name && ts.isIdentifier(member.name);
    });
    classes.set(statement.name.text, methods.map((member) => (member.name as ts.Identifier).text));
  }
  return classes;
}

/** What is wrong with a file's samples: public methods with neither a sample nor a reason, samples or reasons naming no public method. */
function sampleGaps(file: { source: string; text: string; className: string; calls: string[]; unsampled: string[] }): string[] {
  const classes = publicMethods(file.source, file.text);
  const methods = classes.get(file.className);
  if (!methods) return [`${file.source}: no class ${file.className}`];
  const others = [...classes.keys()].filter((name) => name !== file.className);
  const sampled = new Set(file.calls.map((label) => label.split(' ')[0]));
  return [
    ...others.map((name) => `${file.source}: class ${name} has no samples (one class that owns SQL per repository file)`),
    ...methods.filter((m) => !sampled.has(m) && !file.unsampled.includes(m)).map((m) => `${file.source}: ${file.className}.${m} has no sample (SQL_SAMPLES.calls) and no reason (SQL_SAMPLES.unsampled)`),
    ...[...sampled, ...file.unsampled].filter((m) => !methods.includes(m)).map((m) => `${file.source}: "${m}" is no public method of ${file.className}`),
    ...file.unsampled.filter((m) => sampled.has(m)).map((m) => `${file.source}: ${file.className}.${m} is both sampled and unsampled`),
  ];
}

describe('src/queries (generated SQL)', () => {
  let db: Database;
  let files: SampledFile[];
  let generated: Map<string, string>;
  beforeAll(async () => {
    db = await openDatabase(await createTestDatabase(), createLogger('error'), 2);
    files = await sampledFiles();
    generated = await generateQueries(db, files);
  });
  afterAll(() => db.close());

  it('has a file for every repository of src/ (every *.repository.ts) and the SQL plans', () => {
    const repositories = readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.repository.ts'));
    expect(repositories.length).toBeGreaterThanOrEqual(22);
    expect(files.map((f) => f.source).sort()).toEqual(repositories.map((file) => `src/${file.replaceAll('\\', '/')}`).sort());
    expect([...generated.keys()].sort()).toEqual([...files.map((f) => f.output), 'graphql.sql-plan.sql'].sort());
  });

  it('has a sample for every public method of every repository, or a reason in unsampled', () => {
    const gaps = files.flatMap((file) => {
      const className = file.samples.open({} as Database, {} as never).constructor.name;
      return sampleGaps({ source: file.source, text: readFileSync(file.source, 'utf8'), className, calls: Object.keys(file.samples.calls), unsampled: Object.keys(file.samples.unsampled ?? {}) });
    });
    expect(gaps).toEqual([]);
  });

  it('finds a public method without a sample, and ignores private ones', () => {
    const text = `class Helper { run(): void {} }
    export class ThingRepository {
      constructor(private readonly db: Database) {}
      async one(): Promise<void> {}
      async two(): Promise<void> {}
      readonly three = async () => undefined;
      private async hidden(): Promise<void> {}
      static make(): void {}
    }`;
    expect(sampleGaps({ source: 'thing.repository.ts', text, className: 'ThingRepository', calls: ['one', 'one (again)', 'gone'], unsampled: ['three'] })).toEqual([
      'thing.repository.ts: ThingRepository.two has no sample (SQL_SAMPLES.calls) and no reason (SQL_SAMPLES.unsampled)',
      'thing.repository.ts: "gone" is no public method of ThingRepository',
    ]);
  });

  it('holds exactly the generated files', () => {
    const committed = readdirSync('src/queries').filter((name) => name.endsWith('.sql')).sort();
    expect(committed).toEqual([...generated.keys()].sort());
  });

  it('holds the SQL the code sends (else run npm run sql:generate and review the difference)', () => {
    for (const [name, text] of generated) expect({ name, text: readFileSync(`src/queries/${name}`, 'utf8') }).toEqual({ name, text });
  });

  it('lists the statements of the posting path, by the names they are prepared under', () => {
    const posting = generated.get('posting.repository.sql')!;
    expect(posting).toMatch(/-- PostingRepository.resolvePosting \(prepared as ledger_resolve_postings\)\nSELECT /);
    expect(posting).toMatch(/-- PostingRepository.post \(prepared as ledger_post\)\nSELECT .* FROM ledger_post\(/);
  });

  it('lists every statement of a call, past the first, with the transaction it runs in', () => {
    const limits = generated.get('limit.repository.sql')!;
    expect(limits).toMatch(/-- LimitRepository.insert\nBEGIN;\n\n-- LimitRepository.insert\nSELECT 1 FROM projects WHERE id = \$1 FOR NO KEY UPDATE;\n\n-- LimitRepository.insert\nSELECT count\(\*\)::int AS n FROM limits [^\n]*;\n\n-- LimitRepository.insert\nWITH l AS \(\n +INSERT INTO limits [\s\S]*?;\n\n-- LimitRepository.insert\nROLLBACK;\n/);
  });

  describe('a sample', () => {
    // a database of its own: the samples above committed what they could (a key), and the generator runs on an empty one
    let empty: Database;
    beforeAll(async () => {
      empty = await openDatabase(await createTestDatabase(), createLogger('error'), 2);
    });
    afterAll(() => empty.close());
    class XRepository {
      constructor(readonly run: () => Promise<unknown>) {}
    }
    const file = (call: (db: Database) => Promise<unknown>): SampledFile[] => [
      { source: 'src/x.repository.ts', output: 'x.repository.sql', samples: sqlSamples({ open: (db) => new XRepository(() => call(db)), calls: { run: (r) => r.run() } }) as unknown as SampledFile['samples'] },
    ];

    it('that PostgreSQL refuses as a statement (an unknown column) fails the generation', async () => {
      await expect(generateQueries(empty, file((d) => d.query('SELECT no_such_column FROM projects')))).rejects.toThrow(/sample "run" failed: column "no_such_column" does not exist/);
    });

    it('refused for its data (a missing project) is listed up to the statement refused', async () => {
      const out = await generateQueries(empty, file((d) => d.query(`INSERT INTO limits (project_id, asset_id, direction, amount, window_seconds) VALUES (1, gen_random_uuid(), 'debit', 1, 60)`)));
      expect(out.get('x.repository.sql')).toMatch(/-- XRepository.run\nINSERT INTO limits/);
    });

    it('that sends nothing fails the generation', async () => {
      await expect(generateQueries(empty, file(async () => undefined))).rejects.toThrow(/sample "run" sent no statement/);
    });
  });
});
