import type { DocumentNode } from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import type { LRUCache } from 'lru-cache';
import { compiledBytes, lruByBytes, textBytes } from './retained-size.js';

/** graphql-js's interpreter, for the documents graphql-jit would execute wrongly (conditional-merge.ts). */
export const INTERPRETER = 'interpreter';

export type Compiled = CompiledQuery | typeof INTERPRETER;

/**
 * How each document runs (graphql-jit's compiled query, or the interpreter), by a key naming the
 * document and operation: bounded by what the compiled queries keep (retained-size.ts, measured
 * once, when a document is compiled), least recently used out first (CONTRACT §18).
 */
export class CompiledDocuments {
  private readonly entries: LRUCache<string, { query: Compiled; bytes: number }>;

  constructor(maxBytes: number) {
    this.entries = lruByBytes(maxBytes, (entry) => entry.bytes);
  }

  get(key: string): Compiled | undefined {
    return this.entries.get(key)?.query;
  }

  set(key: string, query: Compiled, document: DocumentNode): void {
    this.entries.set(key, { query, bytes: textBytes(key) + (query === INTERPRETER ? 0 : compiledBytes(document)) });
  }
}
