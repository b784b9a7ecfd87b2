import type { DocumentStore } from '@apollo/server';
import type { DocumentNode } from 'graphql';
import type { LRUCache } from 'lru-cache';
import { documentBytes, lruByBytes, textBytes } from './retained-size.js';

/** Parsed and validated documents Apollo keeps (ours: 100 KiB documents of comments take ≈ 110 KB each, lean). */
export const DOCUMENT_STORE_BYTES = 32 * 1024 * 1024;
/** Query texts registered as automatic persisted queries. */
export const PERSISTED_QUERY_BYTES = 8 * 1024 * 1024;

/**
 * Apollo's document store (parsed, validated documents by the hash of their text), bounded by
 * what the documents really keep (retained-size.ts) and least recently used out first. Apollo's
 * default sizes a document by its JSON, which leaves out the token list a comment-padded
 * document drags along: 100 KiB of comments counted as ≈ 630 bytes while it kept MBs. A stored
 * document is made lean (its tokens unlinked) as it enters; Apollo stores it right after
 * validating it, before the request runs it, which needs none of what goes.
 */
export function documentStore(maxBytes = DOCUMENT_STORE_BYTES): DocumentStore {
  return new LruStore<DocumentNode>(maxBytes, (document, key) => documentBytes(document) + textBytes(key));
}

/** The cache Apollo keeps persisted query texts in (its `cache`), by their bytes, least recently used out first. */
export function persistedQueryStore(maxBytes = PERSISTED_QUERY_BYTES): KeyValueStore<string> {
  return new LruStore<string>(maxBytes, (text, key) => textBytes(text) + textBytes(key));
}

/** Apollo's KeyValueCache (@apollo/utils.keyvaluecache, not a dependency of ours: its shape is enough). */
export interface KeyValueStore<V> {
  get(key: string): Promise<V | undefined>;
  /** `ttl` in seconds, as Apollo gives it. */
  set(key: string, value: V, options?: { ttl?: number | null }): Promise<void>;
  delete(key: string): Promise<boolean | void>;
}

/** Apollo's KeyValueCache over lru-cache: a size is computed once, when an entry is stored; a hit moves it to the front. */
class LruStore<V extends object | string> implements KeyValueStore<V> {
  private readonly cache: LRUCache<string, V>;

  constructor(maxBytes: number, sizeOf: (value: V, key: string) => number) {
    this.cache = lruByBytes(maxBytes, sizeOf);
  }

  async get(key: string): Promise<V | undefined> {
    return this.cache.get(key);
  }

  async set(key: string, value: V, options?: { ttl?: number | null }): Promise<void> {
    // Apollo's TTLs are in seconds (persisted queries may carry one); none: kept until pushed out
    this.cache.set(key, value, options?.ttl ? { ttl: options.ttl * 1000 } : undefined);
  }

  async delete(key: string): Promise<boolean> {
    return this.cache.delete(key);
  }
}
