import { randomBytes } from 'node:crypto';
import { openDatabase, type Database } from '../../../src/db/database.js';
import { NotificationChannel } from '../../../src/db/notifications.js';
import { withStatementScope } from '../../../src/db/statement-counter.js';
import { ApiKeyRepository } from '../../../src/domain/auth/api-key.repository.js';
import { ApiKeyService, hashKey } from '../../../src/domain/auth/api-key.service.js';
import { PlanRepository } from '../../../src/domain/auth/plan.repository.js';
import { createLogger } from '../../../src/logger.js';
import { createTestDatabase } from '../../support/database.js';

/**
 * CONTRACT §18, keys under flood, on the service itself over a real database: a clock the test
 * moves stands in for waiting, and every SQL statement an authentication sends is counted.
 */
let db: Database;
let now: number;
let keys: ApiKeyService;
/** Smaller than the service's 100,000 so that a flood twice its size takes seconds, not minutes. */
const UNKNOWN_KEYS_MAX = 10_000;
beforeAll(async () => {
  db = await openDatabase(await createTestDatabase(), createLogger('silent'), 8);
});
afterAll(() => db.close());

const instance = async () => new ApiKeyService(new ApiKeyRepository(db), await new PlanRepository(db).load(), { now: () => now, unknownKeysMax: UNKNOWN_KEYS_MAX });
beforeEach(async () => {
  now = Date.parse('2026-01-01T00:00:00Z');
  keys = await instance();
});

/** The SQL statements one authentication sent (a refusal included). */
async function lookupsOf(apiKey: string, service = keys): Promise<number> {
  const scope = { statements: 0 };
  await withStatementScope(scope, () => service.authenticate(apiKey).catch(() => undefined));
  return scope.statements;
}

const randomKey = () => `lk_${randomBytes(32).toString('base64url')}`;

describe('a wrong key tried again', () => {
  it('costs no lookup for a minute, then one', async () => {
    const wrong = randomKey();
    expect(await lookupsOf(wrong)).toBe(1);
    await expect(keys.authenticate(wrong)).rejects.toMatchObject({ code: 'unauthorized', message: 'unknown api_key' });
    now += 59_000;
    expect(await lookupsOf(wrong)).toBe(0);
    now += 2_000;
    expect(await lookupsOf(wrong)).toBe(1);
  });

  it('works at once on another instance once it is issued there (the issue removes it from the unknown keys)', async () => {
    const other = await instance();
    const channel = new NotificationChannel(db.url, createLogger('silent'));
    await channel.start();
    try {
      await other.followChanges(channel);
      const typedEarly = randomKey();
      expect(await lookupsOf(typedEarly, other)).toBe(1); // now remembered as unknown there
      const heard = new Promise<void>((resolve) => other.onOwnerChange((owner) => owner === 'flood-late' && resolve()));
      // what ApiKeyService.issue stores, with a key chosen by the test instead of a random one
      await new ApiKeyRepository(db).insert({ keyHash: hashKey(typedEarly), prefix: typedEarly.slice(0, 8), ownerId: 'flood-late', planCode: 'free', subscriptionCode: 'SUB_FLOOD_LATE' });
      await heard;
      expect((await other.authenticate(typedEarly)).ownerId).toBe('flood-late');
    } finally {
      await channel.stop();
    }
  });
});

describe('a flood of random keys', () => {
  const FLOOD = 2 * UNKNOWN_KEYS_MAX;
  const BATCH = 200;

  it(`never pushes a known key out: ${FLOOD} random keys cost the key in use no lookup, and it costs one per 5 s`, async () => {
    const known = (await keys.issue('flood-known', 'pro')).api_key;
    expect(await lookupsOf(known)).toBe(1);
    const first = randomKey();
    let last = first;
    const started = Date.now();
    let knownLookups = 0;
    for (let sent = 0; sent < FLOOD; sent += BATCH) {
      const batch = Array.from({ length: sent === 0 ? BATCH - 1 : BATCH }, randomKey);
      if (sent === 0) batch.unshift(first);
      last = batch[batch.length - 1];
      const refused = await Promise.allSettled(batch.map((k) => keys.authenticate(k)));
      expect(refused.every((r) => r.status === 'rejected')).toBe(true);
      knownLookups += await lookupsOf(known); // the known key in use between the batches, the clock standing still
    }
    const seconds = (Date.now() - started) / 1000;
    console.log(`${FLOOD} random keys in ${seconds.toFixed(1)} s (${Math.round(FLOOD / seconds)}/s); lookups of the known key meanwhile: ${knownLookups}`);
    expect(knownLookups).toBe(0);
    now += 5_000;
    expect([await lookupsOf(known), await lookupsOf(known)]).toEqual([1, 0]);
    // memory stays bounded: the flood's oldest key was let go, its newest is still remembered
    expect([await lookupsOf(first), await lookupsOf(last)]).toEqual([1, 0]);
  }, 60_000);
});

describe('the unknown keys at start-up', () => {
  it('cost no memory until the first wrong key (lru-cache allocates its slots when created, ≈ 25 ms of a start at 100,000)', async () => {
    const max = 1_000_000; // lru-cache's slot links alone: two Uint32Arrays of 4 MB each
    const before = process.memoryUsage().arrayBuffers;
    const idle = new ApiKeyService(new ApiKeyRepository(db), await new PlanRepository(db).load(), { now: () => now, unknownKeysMax: max });
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(4_000_000);
    // created at the first wrong key, and remembering it as before
    const wrong = randomKey();
    expect(await lookupsOf(wrong, idle)).toBe(1);
    expect(process.memoryUsage().arrayBuffers - before).toBeGreaterThan(8_000_000);
    expect(await lookupsOf(wrong, idle)).toBe(0);
  });
});
