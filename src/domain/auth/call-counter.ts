import type { CallCountRepository } from './call-count.repository.js';
import { LedgerError } from '../errors.js';
import type { Logger } from '../../logger.js';

interface Entry {
  day: string;
  /** Calls PostgreSQL reported for (owner, day) at the last sync, all instances included. */
  synced: number;
  /** Calls admitted here and not yet sent. */
  pending: number;
  /** Calls being sent right now. */
  sending: number;
  loading?: Promise<void>;
  lastUsed: number;
}

const FLUSH_INTERVAL_MS = 100;
const IDLE_FORGET_MS = 60_000;
/** Within this many calls of the limit, every call is counted in PostgreSQL before it is admitted. */
export const EXACT_WITHIN = 1_000;

/**
 * Daily call quota per owner, counted in PostgreSQL (`api_call_counts`). Far from the limit,
 * calls are admitted against `synced + sending + pending` without a write per request: a timer
 * sends the increments of all owners in one statement every 100 ms and takes back the global
 * total. Within EXACT_WITHIN calls of the limit, each call is admitted by one conditional
 * increment in PostgreSQL (carrying this instance's unsent calls along), so the limit is exact
 * across any number of instances there — the free plan's 1,000 calls are always counted this
 * way. Instances can overshoot only if, together, they admit more than EXACT_WITHIN calls of
 * one owner within one flush round (~200 ms) while each still believes it is far from the limit.
 */
export class CallCounter {
  private readonly entries = new Map<string, Entry>();
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;

  constructor(
    private readonly repository: CallCountRepository,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** Admits one call for `ownerId` or throws 429 `rate_limited`. */
  async admit(ownerId: string, limit: number): Promise<void> {
    const day = utcDay();
    let entry = this.entries.get(ownerId);
    if (!entry || entry.day !== day) {
      entry = { day, synced: 0, pending: 0, sending: 0, lastUsed: Date.now() };
      this.entries.set(ownerId, entry);
      const fresh = entry;
      fresh.loading = this.repository.load(ownerId, day).then(
        (count) => {
          fresh.synced = count;
          fresh.loading = undefined;
        },
        (error: unknown) => {
          // Forget the entry so the next call loads again; the calls that awaited this load fail.
          if (this.entries.get(ownerId) === fresh) this.entries.delete(ownerId);
          throw error;
        },
      );
    }
    if (entry.loading) await entry.loading;
    entry.lastUsed = Date.now();
    const used = entry.synced + entry.sending + entry.pending;
    if (used >= limit) throw rateLimited(limit);
    if (limit - used > EXACT_WITHIN) {
      entry.pending += 1;
      return;
    }
    await this.admitExactly(ownerId, entry, limit);
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
      return;
    }
    entry.pending += unsent;
    entry.synced = Math.max(entry.synced, limit - entry.pending - entry.sending);
    throw rateLimited(limit);
  }

  flush(): Promise<void> {
    if (!this.flushing) this.flushing = this.sendIncrements().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async sendIncrements(): Promise<void> {
    const now = Date.now();
    const batch: [string, Entry, number][] = [];
    for (const [ownerId, entry] of this.entries) {
      if (entry.loading) continue;
      if (entry.pending === 0 && now - entry.lastUsed > IDLE_FORGET_MS) {
        this.entries.delete(ownerId);
        continue;
      }
      batch.push([ownerId, entry, entry.pending]);
      entry.sending += entry.pending;
      entry.pending = 0;
    }
    if (batch.length === 0) return;
    try {
      const totals = await this.repository.addAll(batch.map(([ownerId, entry, calls]) => ({ ownerId, day: entry.day, calls })));
      for (const [ownerId, entry, delta] of batch) {
        entry.sending -= delta;
        // Totals only grow within a day; statements may return out of order (see admitExactly).
        entry.synced = Math.max(entry.synced, totals.get(`${ownerId}/${entry.day}`) ?? entry.synced + delta);
      }
    } catch (err) {
      for (const [, entry, delta] of batch) {
        entry.sending -= delta;
        entry.pending += delta;
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

function utcDay(): string {
  const now = Date.now();
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
