import type { CallCountRepository, CallIncrement } from './call-count.repository.js';
import { LedgerError } from '../errors.js';
import type { Logger } from '../../logger.js';
import { realTimer } from '../shared/timer.js';
import { outsideStatementScope } from '../../db/statement-counter.js';

interface Entry {
  day: string;
  /** Calls PostgreSQL reported for (owner, day) at the last sync, all instances included. */
  synced: number;
  /** When `synced` was read (this counter's clock). */
  syncedAt: number;
  /** Calls admitted here and not yet sent. */
  pending: number;
  /** Calls being sent right now. */
  sending: number;
  /** When the unsent calls must be sent at the latest: the end of the view's round (Infinity when none waits). */
  sendBy: number;
  /** The owner's limit at its last call (sizes the round of calls admitted during a send). */
  limit: number;
  /** The first load, or the call that takes back a stale total: the entry's other calls wait for it. */
  syncing?: Promise<void>;
  lastUsed: number;
}

const IDLE_FORGET_MS = 60_000;
/** Within this many calls of the limit, every call is counted in PostgreSQL before it is admitted. */
export const EXACT_WITHIN = 1_000;
/** The shortest round (near the limit) and the longest (far from it). */
export const ROUND_MIN_MS = 100;
export const ROUND_MAX_MS = 5_000;
/**
 * The calls a round is sized by, per millisecond. An instance cannot see about two rounds of
 * calls (its view may be a round old, and the other instances' unsent calls another round), so
 * 5,000 calls a second together need rounds of spare ÷ 10 ms; 20 keeps a margin of two (a model
 * of two to ten instances overshot at 5 and not at 20 up to 5,000 a second).
 */
export const ROUND_RATE_PER_MS = 20;

/**
 * How long an owner's count may go unsent, and its view of the global total unrefreshed: the
 * calls left before the exact zone, spent at ROUND_RATE_PER_MS, between ROUND_MIN_MS and
 * ROUND_MAX_MS. Far from the limit a round is long; it shortens as the limit nears.
 */
export function roundMs(limit: number, used: number): number {
  const spare = limit - used - EXACT_WITHIN;
  return Math.min(ROUND_MAX_MS, Math.max(ROUND_MIN_MS, Math.floor(spare / ROUND_RATE_PER_MS)));
}

/**
 * Daily call quota per owner, counted in PostgreSQL (`api_call_counts`). Far from the limit,
 * calls are admitted against `synced + sending + pending` without a write per request: the
 * unsent calls of every owner go in one statement at the end of a round (roundMs: 5 s far from
 * the limit, down to 100 ms near it), which takes back the global totals. A view older than its
 * round is not trusted: the call that finds it so is admitted like a call near the limit, and
 * its statement brings back the total. So nothing is sent while no call comes, and a count never
 * goes unsent, nor a view unrefreshed, longer than its round. Within EXACT_WITHIN calls of the
 * limit, each call is admitted by one conditional increment in PostgreSQL (carrying this
 * instance's unsent calls along), so the limit is exact across any number of instances there —
 * the free plan's 1,000 calls are always counted this way. What an instance cannot see is at most
 * about two rounds of calls (its own view a round old, the others' unsent calls another), and a
 * round is sized so that two rounds at 10,000 calls a second fit in the calls left before the
 * exact zone: instances together admitting one owner's calls at up to 5,000 a second (with a
 * margin of two) do not overshoot; faster, they may, while each believes it is far from the limit.
 */
export class CallCounter {
  private readonly entries = new Map<string, Entry>();
  /** Unsent calls of entries replaced at the UTC day change, sent with the next statement. */
  private leftovers: CallIncrement[] = [];
  /** Cancels the armed send (realTimer: it never keeps the process alive), due at `timerAt`. */
  private cancelTimer?: () => void;
  private timerAt = Infinity;
  private flushing?: Promise<void>;
  private running = false;
  private readonly now: () => number;

  constructor(
    private readonly repository: CallCountRepository,
    private readonly logger: Logger,
    options: { now?: () => number } = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Sends counts from now on (a round after the first unsent call; nothing while none comes). */
  start(): void {
    this.running = true;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.clearTimer();
    await this.flush();
  }

  /** When the next statement of unsent counts is due (this counter's clock), or null when none waits (tests, metrics). */
  nextSendAt(): number | null {
    return this.timerAt === Infinity ? null : this.timerAt;
  }

  /** Admits one call for `ownerId` or throws 429 `rate_limited`. */
  async admit(ownerId: string, limit: number): Promise<void> {
    const day = utcDay(this.now());
    let entry = this.entries.get(ownerId);
    if (entry && entry.day !== day && entry.pending > 0) {
      // a new UTC day: the old day's unsent calls still go to their day, in the next statement
      this.leftovers.push({ ownerId, day: entry.day, calls: entry.pending });
      this.schedule(this.now());
    }
    if (!entry || entry.day !== day) {
      entry = { day, synced: 0, syncedAt: 0, pending: 0, sending: 0, sendBy: Infinity, limit, lastUsed: this.now() };
      this.entries.set(ownerId, entry);
      const fresh = entry;
      const asked = this.now();
      fresh.syncing = this.repository.load(ownerId, day).then(
        (count) => {
          fresh.synced = count;
          fresh.syncedAt = asked;
          fresh.syncing = undefined;
        },
        (error: unknown) => {
          // Forget the entry so the next call loads again; the calls that awaited this load fail.
          if (this.entries.get(ownerId) === fresh) this.entries.delete(ownerId);
          throw error;
        },
      );
    }
    while (entry.syncing) await entry.syncing;
    const now = this.now();
    entry.lastUsed = now;
    entry.limit = limit;
    const used = entry.synced + entry.sending + entry.pending;
    if (used >= limit) throw rateLimited(limit);
    if (limit - used <= EXACT_WITHIN) return this.admitExactly(ownerId, entry, limit);
    if (now - entry.syncedAt > roundMs(limit, used)) {
      // A stale view (no send for a round): this call takes back the total; the owner's other calls wait for it.
      const stale = entry;
      const exact = this.admitExactly(ownerId, stale, limit);
      stale.syncing = exact.then(
        () => void (stale.syncing = undefined),
        () => void (stale.syncing = undefined),
      );
      return exact;
    }
    entry.pending += 1;
    // the round shortens as the limit nears: each call may bring the send forward
    const sendBy = entry.syncedAt + roundMs(limit, used + 1);
    if (sendBy < entry.sendBy) {
      entry.sendBy = sendBy;
      this.schedule(sendBy);
    }
  }

  /**
   * One conditional increment: this call plus the calls this instance admitted but has not sent
   * yet, only if the global total stays within the limit. Refused: the unsent calls stay pending
   * and the entry is marked full until the next flush brings back the true total.
   */
  private async admitExactly(ownerId: string, entry: Entry, limit: number): Promise<void> {
    const unsent = entry.pending;
    entry.pending = 0;
    entry.sending += unsent;
    const asked = this.now();
    let total: number | null;
    try {
      total = await this.repository.addOneWithin(ownerId, entry.day, unsent, limit);
    } catch (error) {
      entry.sending -= unsent;
      entry.pending += unsent;
      throw error;
    }
    entry.sending -= unsent;
    if (total !== null) {
      entry.synced = Math.max(entry.synced, total);
      entry.syncedAt = Math.max(entry.syncedAt, asked);
      return;
    }
    entry.pending += unsent;
    entry.synced = Math.max(entry.synced, limit - entry.pending - entry.sending);
    if (entry.pending > 0) {
      entry.sendBy = this.now();
      this.schedule(entry.sendBy);
    }
    throw rateLimited(limit);
  }

  /** Sends every unsent count now (or joins the send under way); resolves when done. */
  flush(): Promise<void> {
    if (!this.flushing) {
      this.flushing = this.sendIncrements().finally(() => {
        this.flushing = undefined;
        this.schedule();
      });
    }
    return this.flushing;
  }

  /**
   * Makes sure a send happens by `at`; a later one scheduled moves earlier. With no `at` (after
   * a send): by the earliest `sendBy` of the entries still holding unsent calls, at least
   * ROUND_MIN_MS from now (a failed send is retried that soon), or none.
   */
  private schedule(at?: number): void {
    if (!this.running) return;
    if (at === undefined) {
      this.clearTimer();
      let earliest = Infinity;
      for (const entry of this.entries.values()) if (entry.pending > 0) earliest = Math.min(earliest, entry.sendBy);
      if (this.leftovers.length > 0) earliest = this.now();
      if (earliest === Infinity) return;
      at = Math.max(earliest, this.now() + ROUND_MIN_MS);
    }
    if (at >= this.timerAt) return;
    this.clearTimer();
    this.timerAt = at;
    // armed by a call, the timer would run in that request's scope: the send is background work
    this.cancelTimer = outsideStatementScope(() =>
      realTimer(() => {
        this.cancelTimer = undefined;
        this.timerAt = Infinity;
        void this.flush();
      }, Math.max(0, at - this.now())),
    );
  }

  private clearTimer(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.timerAt = Infinity;
  }

  private async sendIncrements(): Promise<void> {
    const now = this.now();
    const batch: [string, Entry, number][] = [];
    for (const [ownerId, entry] of this.entries) {
      if (entry.syncing) continue;
      if (entry.pending === 0) {
        if (entry.sending === 0 && now - entry.lastUsed > IDLE_FORGET_MS) this.entries.delete(ownerId);
        continue;
      }
      batch.push([ownerId, entry, entry.pending]);
      entry.sending += entry.pending;
      entry.pending = 0;
      entry.sendBy = Infinity;
    }
    const leftovers = this.leftovers;
    this.leftovers = [];
    if (batch.length === 0 && leftovers.length === 0) return;
    try {
      const totals = await this.repository.addAll([...leftovers, ...batch.map(([ownerId, entry, calls]) => ({ ownerId, day: entry.day, calls }))]);
      for (const [ownerId, entry, delta] of batch) {
        entry.sending -= delta;
        // Totals only grow within a day; statements may return out of order (see admitExactly).
        entry.synced = Math.max(entry.synced, totals.get(`${ownerId}/${entry.day}`) ?? entry.synced + delta);
        entry.syncedAt = Math.max(entry.syncedAt, now);
        // calls admitted during the send: a round from this view
        if (entry.pending > 0) entry.sendBy = entry.syncedAt + roundMs(entry.limit, entry.synced + entry.sending + entry.pending);
      }
    } catch (err) {
      this.leftovers.push(...leftovers);
      for (const [, entry, delta] of batch) {
        entry.sending -= delta;
        entry.pending += delta;
        entry.sendBy = Math.min(entry.sendBy, now);
      }
      this.logger.warn({ err }, 'could not record api call counts; will retry');
    }
  }
}

function rateLimited(limit: number): LedgerError {
  return new LedgerError('rate_limited', `daily call quota of ${limit} reached`, { limit, retry_after: secondsUntilUtcMidnight() });
}

/** The UTC day of the last call and the instants it spans: a new date string only when the clock leaves it (every call asks). */
let today = { day: '', from: 0, until: 0 };

function utcDay(now: number): string {
  if (now < today.from || now >= today.until) {
    const from = now - (now % 86_400_000);
    today = { day: new Date(now).toISOString().slice(0, 10), from, until: from + 86_400_000 };
  }
  return today.day;
}

export function secondsUntilUtcMidnight(now = new Date()): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}
