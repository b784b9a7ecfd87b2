import { openDatabase, type Database } from '../../../src/db/database.js';
import { CallCounter } from '../../../src/domain/auth/call-counter.js';
import { CallCountRepository } from '../../../src/domain/auth/call-count.repository.js';
import { createLogger } from '../../../src/logger.js';
import { createTestDatabase } from '../../support/database.js';

/**
 * CallCounter when PostgreSQL fails it: the counts table is moved away for the first load (a
 * real failing statement), then restored.
 */
let db: Database;
beforeAll(async () => {
  db = await openDatabase(await createTestDatabase(), createLogger('silent'), 4);
});
afterAll(() => db.close());

const counter = () => new CallCounter(new CallCountRepository(db), createLogger('silent'));
const tableAway = () => db.query(`ALTER TABLE api_call_counts RENAME TO api_call_counts_away`);
const tableBack = () => db.query(`ALTER TABLE api_call_counts_away RENAME TO api_call_counts`);
const today = () => new Date().toISOString().slice(0, 10);

describe('CallCounter', () => {
  it('retries the initial load after a failed one instead of failing for the rest of the day', async () => {
    const calls = counter();
    await tableAway();
    try {
      await expect(calls.admit('owner-1', 10_000)).rejects.toThrow(/api_call_counts/);
    } finally {
      await tableBack();
    }
    await expect(calls.admit('owner-1', 10_000)).resolves.toBeUndefined();
  });

  it('fails every call that awaited the failed load, then the next one retries', async () => {
    const calls = counter();
    await tableAway();
    try {
      const [first, second] = await Promise.allSettled([calls.admit('owner-2', 10_000), calls.admit('owner-2', 10_000)]);
      expect([first.status, second.status]).toEqual(['rejected', 'rejected']);
    } finally {
      await tableBack();
    }
    await expect(calls.admit('owner-2', 10_000)).resolves.toBeUndefined();
  });

  it('does not let a failed load keep the owner past the limit check', async () => {
    // reloaded after the failure: the owner is already at its limit, so the retry answers 429
    await db.query(`INSERT INTO api_call_counts (owner_id, day, calls) VALUES ('owner-3', $1, 3)`, [today()]);
    const calls = counter();
    await tableAway();
    try {
      await expect(calls.admit('owner-3', 3)).rejects.toThrow(/api_call_counts/);
    } finally {
      await tableBack();
    }
    await expect(calls.admit('owner-3', 3)).rejects.toMatchObject({ code: 'rate_limited' });
  });
});
