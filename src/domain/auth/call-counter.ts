import type { Database } from '../../db/database.js';
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

/**
 * Daily call quota per owner, counted in PostgreSQL (`api_call_counts`) without a write per
 * request. Each instance admits calls against `synced + sending + pending`, which is exact on
 * one instance; a timer sends the increments of all owners in one statement every 100 ms and
 * takes back the global total, so across N instances the overshoot is bounded by the calls
 * the others admit within one flush interval.
 */
export class CallCounter {
  private readonly entries = new Map<string, Entry>();
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;

  constructor(
    private readonly db: Database,
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
      fresh.loading = this.load(ownerId, day).then((count) => {
        fresh.synced = count;
        fresh.loading = undefined;
      });
    }
    if (entry.loading) await entry.loading;
    entry.lastUsed = Date.now();
    if (entry.synced + entry.sending + entry.pending >= limit) {
      throw new LedgerError('rate_limited', `daily call quota of ${limit} reached`, { limit, retry_after: secondsUntilUtcMidnight() });
    }
    entry.pending += 1;
  }

  private async load(ownerId: string, day: string): Promise<number> {
    const [row] = await this.db.query<{ calls: string }>(`SELECT calls FROM api_call_counts WHERE owner_id = $1 AND day = $2`, [ownerId, day]);
    return row ? Number(row.calls) : 0;
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
      const rows = await this.db.query<{ owner_id: string; day: string; calls: string }>(
        `INSERT INTO api_call_counts (owner_id, day, calls)
           SELECT * FROM unnest($1::text[], $2::date[], $3::bigint[])
         ON CONFLICT (owner_id, day) DO UPDATE SET calls = api_call_counts.calls + EXCLUDED.calls
         RETURNING owner_id, to_char(day, 'YYYY-MM-DD') AS day, calls`,
        [batch.map(([o]) => o), batch.map(([, e]) => e.day), batch.map(([, , d]) => d)],
      );
      const totals = new Map(rows.map((r) => [`${r.owner_id}/${r.day}`, Number(r.calls)]));
      for (const [ownerId, entry, delta] of batch) {
        entry.sending -= delta;
        entry.synced = totals.get(`${ownerId}/${entry.day}`) ?? entry.synced + delta;
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

function utcDay(): string {
  return new Date().toISOString().slice(0, 10);
}

export function secondsUntilUtcMidnight(now = new Date()): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}
