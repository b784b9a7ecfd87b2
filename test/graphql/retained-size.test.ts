import { GraphQLError, parse, type FieldNode, type OperationDefinitionNode } from 'graphql';
import { compiledBytes, documentBytes, DOCUMENT_BYTES_PER_TOKEN, lruByBytes, textBytes } from '../../src/graphql/retained-size.js';

/** A document of one field followed by `lines` comment lines: one token each, in graphql-js's token list. */
const padded = (name: string, lines: number) => `query ${name} {\n  plan { planCode }\n}\n${'#\n'.repeat(lines)}`;

describe('documentBytes: what a stored document keeps (CONTRACT §18, memory bounded in bytes)', () => {
  it('makes the document lean: its token list unlinked (the comments go), its locations kept for errors', () => {
    const document = parse(padded('Q', 10_000));
    expect(document.loc!.startToken.next).not.toBeNull();
    documentBytes(document);
    expect(document.loc!.startToken.next).toBeNull();
    const field = ((document.definitions[0] as OperationDefinitionNode).selectionSet.selections[0]) as FieldNode;
    // graphql-js's locations (source and start) and graphql-jit's (startToken's line and column) stay
    expect(new GraphQLError('x', { nodes: [field] }).locations).toEqual([{ line: 2, column: 3 }]);
    expect([field.loc!.startToken.line, field.loc!.startToken.column]).toEqual([2, 3]);
  });

  it('counts the text and each significant token, not the comments: ≈ the text for a padded document', () => {
    const text = padded('Q', 30_000);
    const bytes = documentBytes(parse(text));
    expect(bytes).toBeGreaterThan(text.length);
    expect(bytes).toBeLessThan(text.length + 20 * DOCUMENT_BYTES_PER_TOKEN);
  });

  it('counts a dense document by its tokens: far more than its text', () => {
    const text = `{ ${Array.from({ length: 500 }, (_, i) => `f${i}`).join(' ')} }`;
    expect(documentBytes(parse(text))).toBeGreaterThanOrEqual(textBytes(text) + 500 * DOCUMENT_BYTES_PER_TOKEN);
  });

  it('is measured once: asked again (another cache, the same document), the same figure without a walk', () => {
    const document = parse(padded('Q', 100));
    const first = documentBytes(document);
    expect(documentBytes(document)).toBe(first);
    expect(compiledBytes(document)).toBeGreaterThan(first);
  });

  it('counts two bytes a character for text beyond Latin-1', () => {
    expect(textBytes('é'.repeat(1000))).toBe(16 + 1000);
    expect(textBytes('€'.repeat(1000))).toBe(16 + 2000);
  });
});

describe('lruByBytes: the caches’ common ground', () => {
  it('evicts by bytes, the least recently used first: a hit keeps an entry, so no first entry stays for good', () => {
    const cache = lruByBytes<string, string>(1000, (value) => value.length);
    cache.set('a', 'x'.repeat(400));
    cache.set('b', 'x'.repeat(400));
    expect(cache.get('a')).toBeDefined(); // a is now the most recent
    cache.set('c', 'x'.repeat(400)); // 1200 > 1000: b goes
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true]);
    cache.set('d', 'x'.repeat(400));
    cache.set('e', 'x'.repeat(400));
    expect([...cache.keys()].sort()).toEqual(['d', 'e']); // a, first in, is gone too
    expect(cache.calculatedSize).toBeLessThanOrEqual(1000);
  });

  it('keeps no entry larger than the whole budget', () => {
    const cache = lruByBytes<string, string>(1000, (value) => value.length);
    cache.set('small', 'x');
    cache.set('huge', 'x'.repeat(1001));
    expect([cache.has('small'), cache.has('huge')]).toEqual([true, false]);
  });
});
