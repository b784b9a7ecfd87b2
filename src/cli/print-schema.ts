import { writeFileSync } from 'node:fs';
import { buildLedgerSchema } from '../graphql/schema.js';

/** `npm run schema:print`: writes the subgraph SDL to schema/ledger.graphql. */
const { sdl } = await buildLedgerSchema();
writeFileSync('schema/ledger.graphql', sdl);
process.stdout.write('wrote schema/ledger.graphql\n');
