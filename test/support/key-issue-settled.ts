import type { ApiKeyService } from '../../src/domain/auth/api-key.service.js';

/**
 * Issuing a key forgets its owner's cached keys twice: at once, and when the issue's NOTIFY comes
 * back. A key first used between the two is dropped from the cache by the second (the next request
 * costs a lookup). Call this before issuing; `settled` resolves after both (or after 5 s, should a
 * NOTIFY never come), and `stop` ends the listening.
 */
export function watchKeyIssue(apiKeys: ApiKeyService, owner: string): { settled: Promise<void>; stop(): void } {
  let forgotten = 0;
  let done!: () => void;
  const settled = new Promise<void>((resolve) => (done = resolve));
  const fuse = setTimeout(() => done(), 5_000).unref();
  const off = apiKeys.onOwnerChange((changed) => {
    if (changed === null || (changed === owner && ++forgotten === 2)) done();
  });
  return {
    settled,
    stop() {
      clearTimeout(fuse);
      off();
    },
  };
}
