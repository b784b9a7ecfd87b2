import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The idempotent request being executed, if any: its key travels to the ledger, which writes it
 * on the posting (see `ledger_post`), without every transport and service passing it by hand.
 */
const storage = new AsyncLocalStorage<string>();

export function withRequestKey<T>(requestKey: string, fn: () => Promise<T>): Promise<T> {
  return storage.run(requestKey, fn);
}

export function currentRequestKey(): string | null {
  return storage.getStore() ?? null;
}
