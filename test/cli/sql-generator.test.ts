import { readdirSync, readFileSync } from 'node:fs';
import { generateQueries } from '../../src/cli/sql-generator.js';

/**
 * The drift test of src/queries/*.sql: the committed SQL of the main statements is exactly what
 * the code sends now. A change to a repository's or a plan's SQL fails here until the files are
 * regenerated (`npm run sql:generate`), so the SQL change shows in the diff a reviewer reads.
 */
describe('src/queries (generated SQL)', () => {
  let generated: Map<string, string>;
  beforeAll(async () => {
    generated = await generateQueries();
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
});
