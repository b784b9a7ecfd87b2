import { readFileSync } from 'node:fs';
import { composeServices } from '@apollo/composition';
import { generate, loadContext } from '@graphql-codegen/cli';
import { parse } from 'graphql';
import { buildLedgerSchema } from '../../src/graphql/schema.js';

describe('schema/ledger.graphql', () => {
  it('is the SDL the code builds (run `npm run schema:print` after changing a type)', async () => {
    const { sdl } = await buildLedgerSchema();
    expect(readFileSync('schema/ledger.graphql', 'utf8')).toBe(sdl);
  });

  it('composes into a supergraph as a Federation v2 subgraph', async () => {
    const { sdl } = await buildLedgerSchema();
    const result = composeServices([{ name: 'ledger', typeDefs: parse(sdl), url: 'http://ledger.invalid/graphql' }]);
    expect(result.errors ?? []).toEqual([]);
  });
});

describe('test/graphql/generated (codegen)', () => {
  it('is what `npm run codegen` generates from the committed schema and documents', async () => {
    const outputs = await generate(await loadContext('codegen.yml'), false);
    expect(outputs.length).toBe(2);
    for (const output of outputs) expect({ file: output.filename, content: readFileSync(output.filename, 'utf8') }).toEqual({ file: output.filename, content: output.content });
  });
});
