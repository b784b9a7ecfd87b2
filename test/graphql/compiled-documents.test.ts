import { parse } from 'graphql';
import { CompiledDocuments, INTERPRETER } from '../../src/graphql/compiled-documents.js';
import { compileDocument, isCompiled } from '../../src/graphql/jit.js';
import { ledgerSchema } from '../../src/graphql/subgraph-schema.js';
import { compiledBytes } from '../../src/graphql/retained-size.js';

describe('compiled documents (HTTP execution-gateway.ts and subscriptions): bounded by what they keep', () => {
  it('evicts by bytes, the least recently used first, counting the document a compiled query holds', async () => {
    const schema = await ledgerSchema();
    const documents = [0, 1, 2, 3].map((i) => parse(`query Q${i} { plan { planCode } }\n${'#\n'.repeat(20_000)}`));
    const compiled = (await Promise.all(documents.map((document) => compileDocument(schema, document)))).filter(isCompiled);
    expect(compiled).toHaveLength(4);
    const each = compiledBytes(documents[0]);
    expect(each).toBeGreaterThan(40_000); // the 40 KB text the compiled query's nodes reach
    const cache = new CompiledDocuments(Math.floor(3.5 * (each + 100)));
    for (let i = 0; i < 3; i++) cache.set(`q${i}`, compiled[i], documents[i]);
    expect(cache.get('q0')).toBe(compiled[0]);
    cache.set('q3', compiled[3], documents[3]);
    expect([0, 1, 2, 3].map((i) => cache.get(`q${i}`) !== undefined)).toEqual([true, false, true, true]);
  });

  it('counts an interpreted document by its key only (it holds no compiled query)', () => {
    const cache = new CompiledDocuments(1000);
    for (let i = 0; i < 10; i++) cache.set(`i${i}`, INTERPRETER, parse(`{ plan { planCode } }\n${'#\n'.repeat(1_000)}`));
    expect(cache.get('i0')).toBe(INTERPRETER);
  });
});
