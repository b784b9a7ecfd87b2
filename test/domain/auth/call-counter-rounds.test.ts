import { openDatabase, type Database } from '../../../src/db/database.js';
import { CallCounter, EXACT_WITHIN, ROUND_MAX_MS, ROUND_MIN_MS, ROUND_RATE_PER_MS, roundMs } from '../../../src/domain/auth/call-counter.js';
import { CallCountRepository, type CallIncrement } from '../../../src/domain/auth/call-count.repository.js';
import { createLogger } from '../../../src/logger.js';
import { requestScope, withStatementScope, type StatementScope } from '../../../src/db/statement-counter.js';
import { createTestDatabase } from '../../support/database.js';

/**
 * CallCounter's rounds: counts are sent once per round (long far from the limit), nothing is sent
 * while no call comes, and a view older than its round is refreshed by the call that finds it —
 * so the quota holds across instances sharing one database. Real PostgreSQL; the counters'
 * clock is the test's, so nothing sleeps.
 */
let db: Database;
beforeAll(async () => {
  db = await openDatabase(await createTestDatabase(), createLogger('silent'), 4);
});
afterAll(() => db.close());

/** The real repository, counting the statements it sends. */
class CountingRepository extends CallCountRepository {
  statements = 0;
  /** Called with the request scope each send of a round runs in. */
  onSend?: (scope: StatementScope | undefined) => void;
  override load(ownerId: string, day: string): Promise<number> {
    this.statements += 1;
    return super.load(ownerId, day);
  }
  override addOneWithin(ownerId: string, day: string, unsent: number, limit: number): Promise<number | null> {
    this.statements += 1;
    return super.addOneWithin(ownerId, day, unsent, limit);
  }
  override addAll(increments: CallIncrement[]): Promise<Map<string, number>> {
    this.statements += 1;
    this.onSend?.(requestScope());
    return super.addAll(increments);
  }
}

const today = () => new Date(clock).toISOString().slice(0, 10);
let clock = Date.now();
const instance = () => {
  const repository = new CountingRepository(db);
  return { repository, calls: new CallCounter(repository, createLogger('silent'), { now: () => clock }) };
};
const counted = async (owner: string) => {
  const [row] = await db.query<{ calls: string }>(`SELECT calls FROM api_call_counts WHERE owner_id = $1 AND day = $2`, [owner, today()]);
  return Number(row?.calls ?? 0);
};

describe('CallCounter rounds', () => {
  it('sizes a round by the calls left before the exact zone: 5 s far from the limit, 100 ms near it', () => {
    expect(roundMs(1_000_000_000, 0)).toBe(ROUND_MAX_MS);
    expect(roundMs(1_000_000, 0)).toBe(ROUND_MAX_MS);
    expect(roundMs(100_000, 100_000 - EXACT_WITHIN - 10_000)).toBe(10_000 / ROUND_RATE_PER_MS); // 10,000 calls left
    expect(roundMs(100_000, 100_000 - EXACT_WITHIN - 10)).toBe(ROUND_MIN_MS);
  });

  it('sends nothing while no call comes, and the calls of a round in one statement at its end', async () => {
    clock = Date.now();
    const { repository, calls } = instance();
    calls.start();
    try {
      expect(calls.nextSendAt()).toBeNull(); // nothing unsent, nothing scheduled
      await calls.admit('rounds-idle', 1_000_000); // the first call loads the count
      expect(repository.statements).toBe(1);
      expect(calls.nextSendAt()).toBe(clock + ROUND_MAX_MS); // sent at the end of the view's round
      clock += 1_000;
      for (let i = 0; i < 50; i++) await calls.admit('rounds-idle', 1_000_000);
      expect(repository.statements).toBe(1); // admitted in memory
      expect(calls.nextSendAt()).toBe(clock - 1_000 + ROUND_MAX_MS);
      await calls.flush();
      expect(repository.statements).toBe(2);
      expect(await counted('rounds-idle')).toBe(51);
      expect(calls.nextSendAt()).toBeNull();
      await calls.flush(); // nothing unsent: no statement
      expect(repository.statements).toBe(2);
    } finally {
      await calls.stop();
    }
  });

  it('brings the send forward as the limit nears', async () => {
    clock = Date.now();
    const { calls } = instance();
    calls.start();
    try {
      const limit = EXACT_WITHIN + 400 * ROUND_RATE_PER_MS; // a 400 ms round before the exact zone
      await calls.admit('rounds-near', limit);
      await calls.admit('rounds-near', limit);
      expect(calls.nextSendAt()).toBe(clock + roundMs(limit, 2));
      expect(roundMs(limit, 2)).toBeLessThan(ROUND_MAX_MS);
    } finally {
      await calls.stop();
    }
  });

  it('sends a round armed by a call outside that call’s request: background work, neither its statement nor its connection', async () => {
    clock = Date.now();
    const { repository, calls } = instance();
    const sentIn = new Promise<StatementScope | undefined>((resolve) => (repository.onSend = resolve));
    calls.start();
    try {
      const limit = EXACT_WITHIN + 100 * ROUND_RATE_PER_MS; // the shortest round: the send is armed 100 ms ahead
      const scope: StatementScope = { statements: 0 };
      await withStatementScope(scope, async () => {
        await calls.admit('rounds-scope', limit); // loads the count: this request's statement
        await calls.admit('rounds-scope', limit); // admitted in memory: arms the round's send
      });
      expect(calls.nextSendAt()).not.toBeNull();
      expect(await sentIn).toBeUndefined();
      expect(scope.statements).toBe(1);
    } finally {
      await calls.stop();
    }
  });

  it('takes back the total before trusting a view older than its round: the quota holds across two instances', async () => {
    clock = Date.now();
    const limit = 20_000;
    const a = instance();
    const b = instance();
    await a.calls.admit('rounds-shared', limit); // a's view: 0 calls so far
    await a.calls.flush();
    // meanwhile the other instance admits 18,990 calls and sends them
    await b.calls.admit('rounds-shared', limit);
    await b.calls.flush();
    // 18989, not 18_989: PostgreSQL 15 reads no digit separators in SQL (16 does)
    await db.query(`UPDATE api_call_counts SET calls = calls + 18989 WHERE owner_id = 'rounds-shared' AND day = $1`, [today()]);
    expect(await counted('rounds-shared')).toBe(18_991);
    clock += ROUND_MAX_MS + 1; // a's view is now older than its round
    const before = a.repository.statements;
    await a.calls.admit('rounds-shared', limit);
    expect(a.repository.statements).toBe(before + 1); // that call went to PostgreSQL, and brought back the total
    expect(await counted('rounds-shared')).toBe(18_992);
    // a now knows it is in the exact zone: it admits exactly what is left, then refuses
    let admitted = 0;
    for (;;) {
      try {
        await a.calls.admit('rounds-shared', limit);
        admitted += 1;
      } catch (error) {
        expect(error).toMatchObject({ code: 'rate_limited' });
        break;
      }
    }
    expect(admitted).toBe(limit - 18_992);
    expect(await counted('rounds-shared')).toBe(limit);
  });

  it('lets the calls that arrive while a stale view is refreshed wait for it (one statement for all)', async () => {
    clock = Date.now();
    const { repository, calls } = instance();
    await calls.admit('rounds-burst', 1_000_000);
    clock += ROUND_MAX_MS + 1;
    const before = repository.statements;
    await Promise.all(Array.from({ length: 20 }, () => calls.admit('rounds-burst', 1_000_000)));
    expect(repository.statements).toBe(before + 1);
    await calls.flush();
    expect(await counted('rounds-burst')).toBe(21);
  });

  it("sends the old day's unsent calls to their day at the UTC day change", async () => {
    clock = Date.UTC(2026, 10, 27) - 1_000; // a second before midnight
    const { calls } = instance(); // not started: only the test's flush sends
    const before = today();
    for (let i = 0; i < 30; i++) await calls.admit('rounds-midnight', 1_000_000);
    clock += 2_000; // the next day
    await calls.admit('rounds-midnight', 1_000_000);
    await calls.flush();
    const [old] = await db.query<{ calls: string }>(`SELECT calls FROM api_call_counts WHERE owner_id = 'rounds-midnight' AND day = $1`, [before]);
    expect(Number(old?.calls ?? 0)).toBe(30);
    expect(await counted('rounds-midnight')).toBe(1);
  });
});
