import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { generateQueries } from './sql-generator.js';

/** `npm run sql:generate`: writes src/queries/*.sql (the generated SQL of the main statements), removing files no longer generated. */
const DIR = 'src/queries';
const files = await generateQueries();
mkdirSync(DIR, { recursive: true });
for (const name of readdirSync(DIR)) if (name.endsWith('.sql') && !files.has(name)) rmSync(`${DIR}/${name}`);
for (const [name, text] of files) writeFileSync(`${DIR}/${name}`, text);
process.stdout.write(`wrote ${files.size} files in ${DIR}\n`);
