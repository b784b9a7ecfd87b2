import { LedgerError } from '../../../src/domain/errors.js';
import { longReadCapacity, LongReadSlots } from '../../../src/domain/shared/long-read-slots.js';
import type { Timer } from '../../../src/domain/shared/timer.js';

/** A timer the test fires itself: the slot wait's 5 s pass when the test says so. */
function manualTimer() {
  const armed: { fire: () => void; ms: number; cancelled: boolean }[] = [];
  const timer: Timer = (fire, ms) => {
    const entry = { fire, ms, cancelled: false };
    armed.push(entry);
    return () => void (entry.cancelled = true);
  };
  return { timer, fireAll: () => armed.filter((a) => !a.cancelled).forEach((a) => a.fire()), armed };
}

const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error instanceof LedgerError ? { status: error.status, ...error.toBody() } : error));

describe('long-read slots (CONTRACT §18)', () => {
  it('a quarter of the request connections, at least one', () => {
    expect([1, 3, 4, 10, 20, 500].map(longReadCapacity)).toEqual([1, 1, 1, 2, 5, 125]);
  });

  it('an owner runs at most 2 exports and 1 verify at once: the next is 429 rate_limited with details.limit, at once', async () => {
    const slots = new LongReadSlots(10);
    const exports = [await slots.enter('a', 'export'), await slots.enter('a', 'export')];
    expect(await refusal(slots.enter('a', 'export'))).toEqual({ status: 429, code: 'rate_limited', message: expect.any(String), details: { limit: 'concurrent_exports' } });
    const verify = await slots.enter('a', 'verify'); // caps are per kind
    expect(await refusal(slots.enter('a', 'verify'))).toEqual({ status: 429, code: 'rate_limited', message: expect.any(String), details: { limit: 'concurrent_verifies' } });
    await slots.enter('b', 'export'); // and per owner
    exports[0]();
    exports[0](); // a second release gives nothing back twice
    await slots.enter('a', 'export');
    expect(await refusal(slots.enter('a', 'export'))).toMatchObject({ details: { limit: 'concurrent_exports' } });
    verify();
    await slots.enter('a', 'verify');
  });

  it('past the instance capacity the next waits its turn, first come first served, and takes a slot given back', async () => {
    const { timer } = manualTimer();
    const slots = new LongReadSlots(2, 5_000, timer);
    const held = [await slots.enter('a', 'export'), await slots.enter('b', 'export')];
    const order: string[] = [];
    const c = slots.enter('c', 'verify').then((release) => (order.push('c'), release));
    const d = slots.enter('d', 'export').then((release) => (order.push('d'), release));
    expect(slots.stats).toEqual({ running: 2, waiting: 2 });
    held[1]();
    (await c)();
    held[0]();
    (await d)();
    expect(order).toEqual(['c', 'd']);
    expect(slots.stats).toEqual({ running: 0, waiting: 0 });
  });

  it('a waiter gets 503 timeout after its 5 s, and its owner may try again', async () => {
    const { timer, armed, fireAll } = manualTimer();
    const slots = new LongReadSlots(1, 5_000, timer);
    const held = await slots.enter('a', 'export');
    const waiting = refusal(slots.enter('b', 'verify'));
    expect(armed.map((a) => a.ms)).toEqual([5_000]);
    fireAll();
    expect(await waiting).toEqual({ status: 503, code: 'timeout', message: expect.any(String), details: {} });
    expect(slots.stats).toEqual({ running: 1, waiting: 0 });
    held();
    (await slots.enter('b', 'verify'))();
  });

  it('a waiter whose client went away leaves the queue at once; whenIdle() resolves when the last slot is back', async () => {
    const slots = new LongReadSlots(1);
    const held = await slots.enter('a', 'export');
    const gone = new AbortController();
    const waiting = slots.enter('b', 'export', gone.signal).catch((error: unknown) => error);
    const idle = slots.whenIdle();
    gone.abort(new Error('client gone'));
    expect(((await waiting) as Error).message).toBe('client gone');
    expect(slots.stats).toEqual({ running: 1, waiting: 0 });
    let resolved = false;
    void idle.then(() => (resolved = true));
    await Promise.resolve();
    expect(resolved).toBe(false);
    held();
    await idle;
    // b's cap was given back with its wait: two of its exports are admitted again (one runs, one queues)
    const first = await slots.enter('b', 'export');
    const second = slots.enter('b', 'export');
    expect(slots.stats).toEqual({ running: 1, waiting: 1 });
    first();
    (await second)();
  });
});
