import { buildSchema, parse } from 'graphql';
import { compileDocument, isCompiled } from '../../src/graphql/jit.js';

/**
 * graphql-jit loads on the first document compiled (src/graphql/jit.ts), not with the service's
 * modules. A fresh module registry per test file: here nothing has loaded it before the first call.
 */
const schema = buildSchema('type Query { hello: String }');

describe('graphql-jit on first use', () => {
  it('compiles the very first document, loading graphql-jit for it, and runs it', async () => {
    const compiled = await compileDocument(schema, parse('query Hello { greeting: hello }'));
    expect(isCompiled(compiled)).toBe(true);
    if (!isCompiled(compiled)) return;
    expect(await compiled.query({ hello: 'hello ledger' }, {}, {})).toEqual({ data: { greeting: 'hello ledger' } });
  });

  it('returns the errors of a document graphql-jit cannot compile (an unknown operation name)', async () => {
    const result = await compileDocument(schema, parse('query A { hello }'), 'B');
    expect(isCompiled(result)).toBe(false);
    expect(isCompiled(result) ? [] : result.errors?.map((e) => e.message)).toEqual(['Unknown operation named "B".']);
  });
});
