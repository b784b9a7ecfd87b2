import { firstConnectionBy } from '../../db/request-connections.js';
import { LedgerError } from '../errors.js';
import { acquireTimeout } from './error-translation.js';
import { realTimer, type Timer } from './timer.js';

/** The reads that hold a request connection for as long as a client takes (exports) or run long (verify). */
export type LongRead = 'export' | 'verify';

/** CONTRACT §18: how many of each one owner may run at once on an instance, and the `details.limit` past it. */
const PER_OWNER: Record<LongRead, { max: number; limit: string; message: string }> = {
  export: { max: 2, limit: 'concurrent_exports', message: 'at most 2 exports of one owner run at once on an instance; one must end first' },
  verify: { max: 1, limit: 'concurrent_verifies', message: 'at most 1 journal verify of one owner runs at once on an instance; it must end first' },
};

/** CONTRACT §18: exports and verifies together hold at most a quarter of the instance's request connections (at least one). */
export const longReadCapacity = (requestConnections: number): number => Math.max(1, Math.floor(requestConnections / 4));

/** How long a long read waits for a slot when the instance's are taken: as any request waits for a connection (then 503 `timeout`). */
export const SLOT_WAIT_MS = 5_000;

/**
 * Runs `fn`, a long read's first statement, so that the wait for its connection ends where the
 * wait for its slot would have: the read asked at `asked`, and both waits together are the one
 * wait of at most SLOT_WAIT_MS that any request has (CONTRACT §18), then 503 `timeout`.
 */
export function withinOneWait<T>(asked: number, fn: () => Promise<T>): Promise<T> {
  return firstConnectionBy(asked + SLOT_WAIT_MS, fn);
}

/** Gives the slot back; a second call does nothing. */
export type Release = () => void;

interface Waiter {
  take: () => void;
  give: (error: unknown) => void;
}

/**
 * The instance's slots for long reads (CONTRACT §18). An owner past its cap is refused at once
 * (429 `rate_limited`): its own reads are what it waits for, and they may last as long as its
 * clients like. Past the instance's quarter of the request connections, the next read waits
 * its turn (first come, first served) up to SLOT_WAIT_MS, then 503 `timeout`, so that one owner's
 * exports can never take the connections every other request needs. A waiter whose client is
 * gone (`signal`) leaves the queue at once.
 */
export class LongReadSlots {
  #running = 0;
  readonly #queue: Waiter[] = [];
  /** Reads admitted per owner and kind, running or waiting for a slot. */
  readonly #perOwner = new Map<string, number>();
  /** Callers of whenIdle() waiting for the last read to give its slot back. */
  #idleWaiters: (() => void)[] = [];

  constructor(
    readonly capacity: number,
    private readonly waitMs = SLOT_WAIT_MS,
    private readonly timer: Timer = realTimer,
  ) {}

  /** Reads holding a slot and reads waiting for one (tests, metrics). */
  get stats(): { running: number; waiting: number } {
    return { running: this.#running, waiting: this.#queue.length };
  }

  /** Resolves once no read holds a slot or waits for one (at once when none does): every connection they held is back. */
  whenIdle(): Promise<void> {
    if (this.#perOwner.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * A slot for `ownerId`'s read of `kind`, once one is free. Throws 429 `rate_limited` when the
   * owner already runs its cap, 503 `timeout` when no slot came free in time, and the signal's
   * reason when the client went away while waiting.
   */
  async enter(ownerId: string, kind: LongRead, signal?: AbortSignal): Promise<Release> {
    signal?.throwIfAborted();
    const key = `${kind} ${ownerId}`;
    const admitted = this.#perOwner.get(key) ?? 0;
    const { max, limit, message } = PER_OWNER[kind];
    if (admitted >= max) throw new LedgerError('rate_limited', message, { limit });
    this.#perOwner.set(key, admitted + 1);
    const leave = () => {
      const left = (this.#perOwner.get(key) ?? 1) - 1;
      if (left > 0) this.#perOwner.set(key, left);
      else this.#perOwner.delete(key);
      if (this.#perOwner.size === 0) for (const resolve of this.#idleWaiters.splice(0)) resolve();
    };
    try {
      await this.#slot(signal);
    } catch (error) {
      leave();
      throw error;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      leave();
      this.#handOn();
    };
  }

  #slot(signal?: AbortSignal): Promise<void> {
    if (this.#running < this.capacity && this.#queue.length === 0) {
      this.#running += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const settle = () => {
        cancelTimer();
        signal?.removeEventListener('abort', onAbort);
        const at = this.#queue.indexOf(waiter);
        if (at >= 0) this.#queue.splice(at, 1);
      };
      const waiter: Waiter = {
        take: () => (settle(), resolve()),
        give: (error) => (settle(), reject(error)),
      };
      const onAbort = () => waiter.give(signal!.reason);
      const cancelTimer = this.timer(() => waiter.give(acquireTimeout()), this.waitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
    });
  }

  /** A slot was given back: the first waiter takes it, else it is free. */
  #handOn(): void {
    const next = this.#queue[0];
    if (next) next.take();
    else this.#running -= 1;
  }
}
