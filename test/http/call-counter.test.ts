import type { Database } from '../../src/db/database.js';
import { CallCounter } from '../../src/domain/auth/call-counter.js';
import { CallCountRepository } from '../../src/domain/auth/call-count.repository.js';
import { createLogger } from '../../src/logger.js';

/** A Database whose `query` answers from a script: an Error rejects, anything else is the rows. */
function scriptedDb(answers: (Error | unknown[])[]): { db: Database; calls: string[] } {
  const calls: string[] = [];
  const db = {
    async query(text: string) {
      calls.push(text);
      const answer = answers.shift() ?? [];
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as Database;
  return { db, calls };
}

describe('CallCounter', () => {
  it('retries the initial load after a failed one instead of failing for the rest of the day', async () => {
    const { db, calls } = scriptedDb([new Error('database hiccup'), [{ calls: '5' }]]);
    const counter = new CallCounter(new CallCountRepository(db), createLogger('silent'));
    await expect(counter.admit('owner-1', 10_000)).rejects.toThrow('database hiccup');
    await expect(counter.admit('owner-1', 10_000)).resolves.toBeUndefined();
    expect(calls.filter((sql) => sql.includes('SELECT calls'))).toHaveLength(2);
  });

  it('fails every call that awaited the failed load, then the next one retries', async () => {
    const { db } = scriptedDb([new Error('database hiccup'), [{ calls: '0' }]]);
    const counter = new CallCounter(new CallCountRepository(db), createLogger('silent'));
    const first = counter.admit('owner-2', 10_000);
    const second = counter.admit('owner-2', 10_000);
    await expect(first).rejects.toThrow('database hiccup');
    await expect(second).rejects.toThrow('database hiccup');
    await expect(counter.admit('owner-2', 10_000)).resolves.toBeUndefined();
  });

  it('does not let a failed load keep the owner past the limit check', async () => {
    // reloaded after the failure: the owner is already at its limit, so the retry answers 429
    const { db } = scriptedDb([new Error('database hiccup'), [{ calls: '3' }]]);
    const counter = new CallCounter(new CallCountRepository(db), createLogger('silent'));
    await expect(counter.admit('owner-3', 3)).rejects.toThrow('database hiccup');
    await expect(counter.admit('owner-3', 3)).rejects.toMatchObject({ code: 'rate_limited' });
  });
});
