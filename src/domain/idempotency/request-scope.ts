import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The idempotent request being executed, if any: its key travels to the ledger, which writes it
 * on the posting (see `ledger_post`), without every transport and service passing it by hand.
 * One request may post several times (a GraphQL document with several mutations): each posting
 * gets its own key, `<request key>:<ordinal>`, in the order the request makes them — the same
 * order on a retry, since a request's postings run one after another.
 */
interface Scope {
  key: string;
  postings: number;
}

const storage = new AsyncLocalStorage<Scope>();

export function withRequestKey<T>(requestKey: string, fn: () => Promise<T>): Promise<T> {
  return storage.run({ key: requestKey, postings: 0 }, fn);
}

/** The key of the next posting of the current idempotent request, or null outside one. */
export function nextPostingKey(): string | null {
  const scope = storage.getStore();
  if (!scope) return null;
  return `${scope.key}:${scope.postings++}`;
}
