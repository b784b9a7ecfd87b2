import type { DocumentNode, Token } from 'graphql';
import { LRUCache } from 'lru-cache';

/**
 * What the caches of documents and of what is made from them really keep, in bytes, so that each
 * is bounded by its bytes (CONTRACT §18, "Memory is bounded in bytes"). Sizes are computed once,
 * when an entry is stored (never on a hit), from figures measured on Node 24 (bench/memory/padded-documents.mjs,
 * docs/decisions/caches-bounded-in-bytes.md).
 *
 * graphql-js's parser links every token of the text, comments included, into a list that each
 * node's `loc` reaches: a 100 KiB document of `#` lines keeps ≈ 4.6 MB that way (≈ 110 bytes a
 * comment line), while Apollo's own cache sized it by its JSON (≈ 630 bytes). Once a document has
 * been validated, nothing reads that list again: error locations come from `loc.source` and
 * `loc.start` (graphql-js) or `loc.startToken.line`/`column` (graphql-jit), and those stay. So a
 * document stored for reuse is made lean first — its tokens unlinked, which leaves the comments
 * and every token no node starts or ends at to the garbage collector — and then costs its text
 * plus about a node's worth per significant token.
 */

/** Measured: ≤ 506 bytes per significant token beyond the text (a selection of 500 bare fields); rounded up. */
export const DOCUMENT_BYTES_PER_TOKEN = 600;
/** graphql-jit's compiled query: ≈ 4.5 KB for two fields, 62–282 bytes per token beyond that before its first run; with room for bytecode. */
export const COMPILED_BYTES_BASE = 16 * 1024;
export const COMPILED_BYTES_PER_TOKEN = 512;

/**
 * A cache of at most `maxBytes` by `sizeOf` (called once per entry, when it is stored), least
 * recently used out first: a hit moves its entry to the front in O(1), so no client's first
 * entries stay for good. An entry larger than the whole budget is not kept. `maxEntries`: a
 * bound on their number as well.
 */
export function lruByBytes<K extends {}, V extends {}>(maxBytes: number, sizeOf: (value: V, key: K) => number, maxEntries?: number): LRUCache<K, V> {
  return new LRUCache<K, V>({ max: maxEntries, maxSize: maxBytes, sizeCalculation: (value, key) => Math.max(1, Math.ceil(sizeOf(value, key))) });
}

interface Retained {
  bytes: number;
  /** Significant tokens (or nodes, for a document parsed without locations). */
  tokens: number;
}

const retained = new WeakMap<DocumentNode, Retained>();

/**
 * The bytes `document` keeps once lean; the first call makes it lean (unlinks its tokens) and
 * remembers the figure, so later calls (other caches holding the same document) are O(1).
 */
export function documentBytes(document: DocumentNode): number {
  return retainedBy(document).bytes;
}

/** What graphql-jit's compilation of `document` keeps, the document included (its resolve infos hold its nodes). */
export function compiledBytes(document: DocumentNode): number {
  const { bytes, tokens } = retainedBy(document);
  return bytes + COMPILED_BYTES_BASE + tokens * COMPILED_BYTES_PER_TOKEN;
}

/** A string's bytes in V8: one per character when every one fits in Latin-1, else two; plus its header. */
export function textBytes(text: string): number {
  return 16 + (ONE_BYTE.test(text) ? text.length : 2 * text.length);
}

const ONE_BYTE = /^[\u0000-\u00ff]*$/;

function retainedBy(document: DocumentNode): Retained {
  let known = retained.get(document);
  if (!known) retained.set(document, (known = makeLean(document)));
  return known;
}

/** Unlinks the document's tokens and counts the significant ones. */
function makeLean(document: DocumentNode): Retained {
  const loc = document.loc;
  if (!loc) {
    const nodes = countNodes(document);
    return { bytes: nodes * DOCUMENT_BYTES_PER_TOKEN, tokens: nodes };
  }
  let tokens = 0;
  for (let token: Token | null = loc.startToken; token !== null; ) {
    const next: Token | null = token.next;
    if (token.kind !== 'Comment') tokens++;
    // Token's fields are readonly in graphql's types only; no reader follows them after parsing.
    (token as { prev: unknown }).prev = null;
    (token as { next: unknown }).next = null;
    token = next;
  }
  return { bytes: textBytes(loc.source.body) + tokens * DOCUMENT_BYTES_PER_TOKEN, tokens };
}

function countNodes(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countNodes(item), 0);
  let nodes = 'kind' in value ? 1 : 0;
  for (const child of Object.values(value)) nodes += countNodes(child);
  return nodes;
}
