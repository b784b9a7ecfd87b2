import { openDatabase, type Database } from '../../../src/db/database.js';
import { CallCounter } from '../../../src/domain/auth/call-counter.js';
import { CallCountRepository } from '../../../src/domain/auth/call-count.repository.js';
import { createLogger } from '../../../src/logger.js';
import { createTestDatabase } from '../../support/database.js';

/**
 * The quota's bound across instances: two CallCounters on one database admit one owner's calls
 * at 5,000 a second together, near the limit, each sending at the end of its rounds (the test
 * fires the sends at their due instants on the counters' clock: nothing sleeps). Neither may
 * admit a call past the limit: what one cannot see (its own view, up to a round old, and the
 * other's unsent calls, another round) must fit in the calls left before the exact zone.
 */
let db: Database;
beforeAll(async () => {
  db = await openDatabase(await createTestDatabase(), createLogger('silent'), 4);
});
afterAll(() => db.close());

let clock = Date.now();
const today = () => new Date(clock).toISOString().slice(0, 10);
const counter = () =>
  new CallCounter(new CallCountRepository(db), createLogger('silent'), {
    now: () => clock,
  });

/** Admits calls at `perMs` a millisecond, shared between the counters, until both refuse; answers the calls admitted. */
async function drive(owner: string, limit: number, counters: CallCounter[], perMs: number): Promise<number> {
  let admitted = 0;
  const share = perMs / counters.length;
  const owed = counters.map(() => 0);
  for (let ms = 0; ms < 60_000; ms++) {
    clock += 1;
    let refused = 0;
    for (const [i, calls] of counters.entries()) {
      const due = calls.nextSendAt();
      if (due !== null && due <= clock) await calls.flush();
      owed[i] += share;
      for (; owed[i] >= 1; owed[i] -= 1) {
        try {
          await calls.admit(owner, limit);
          admitted += 1;
        } catch (error) {
          expect(error).toMatchObject({ code: 'rate_limited' });
          refused += 1;
        }
      }
    }
    if (refused >= perMs) break; // every call of this millisecond refused: the quota is spent
  }
  for (const calls of counters) await calls.flush();
  return admitted;
}

describe('CallCounter quota across instances', () => {
  it.each([['views 4.9 s and 2.5 s old', 4_900, 2_500]])(
    'two instances at 5,000 calls a second near the limit admit no call past it (%s)',
    async (_, ageA, ageB) => {
      const owner = `overshoot-${ageA}-${ageB}`;
      const limit = 200_000;
      const used = 150_000;
      clock = Date.now();
      const [a, b] = [counter(), counter()];
      await db.query(`INSERT INTO api_call_counts (owner_id, day, calls) VALUES ($1, $2, $3)`, [owner, today(), used - 2]);
      // each instance loaded the owner's count some time ago (one call each, sent at once)
      clock -= ageA;
      await a.admit(owner, limit);
      await a.flush();
      clock += ageA - ageB;
      await b.admit(owner, limit);
      await b.flush();
      clock += ageB;
      const admitted = await drive(owner, limit, [a, b], 5);
      const [row] = await db.query<{ calls: string }>(`SELECT calls FROM api_call_counts WHERE owner_id = $1 AND day = $2`, [owner, today()]);
      expect({ admitted, counted: Number(row.calls) }).toEqual({
        admitted: limit - used,
        counted: limit,
      });
    },
  );
});
