import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The idempotent request being executed, if any: its key travels to the ledger, which writes it
 * on the posting (see `ledger_post`), without every transport and service passing it by hand.
 * One request may post several times (a GraphQL document with several mutations): each posting
 * gets its own key, `<request key>:<ordinal>`, in the order the request makes them — the same
 * order on a retry, since a request's postings run one after another.
 *
 * It also counts the request's mutations and which of them were dry runs: a request that ran
 * only dry runs stores no idempotency record (CONTRACT §24 clarification), which only a GraphQL
 * request under an `Idempotency-Key` header can be (a REST dry run never claims its key).
 */
export interface RequestScope {
  key: string;
  postings: number;
  mutations: number;
  dryRuns: number;
}

const storage = new AsyncLocalStorage<RequestScope>();

export function newRequestScope(requestKey: string): RequestScope {
  return { key: requestKey, postings: 0, mutations: 0, dryRuns: 0 };
}

export function withRequestScope<T>(scope: RequestScope, fn: () => Promise<T>): Promise<T> {
  return storage.run(scope, fn);
}

/** The key of the next posting of the current idempotent request, or null outside one. */
export function nextPostingKey(): string | null {
  const scope = storage.getStore();
  if (!scope) return null;
  return `${scope.key}:${scope.postings++}`;
}

/** Notes one mutation of the current idempotent request (none outside one), a dry run or not. */
export function noteMutation(options: { dryRun: boolean }): void {
  const scope = storage.getStore();
  if (!scope) return;
  scope.mutations++;
  if (options.dryRun) scope.dryRuns++;
}

/** Whether the request ran dry runs and nothing else: then it wrote nothing, and nothing of it is kept. */
export const ranOnlyDryRuns = (scope: RequestScope): boolean => scope.dryRuns > 0 && scope.dryRuns === scope.mutations;
