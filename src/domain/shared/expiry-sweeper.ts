import type { Logger } from '../../logger.js';
import { realTimer, type Timer } from './timer.js';

/** One round of one kind of due work (holds_sweep.sql, lots_sweep.sql), in one database transaction. */
export interface SweepRound {
  /** Expiry transactions posted. */
  expired: number;
  /** Holds past their expiry released (each wrote its `hold.expired`). */
  released: number;
  /** Maturing holds settled at their time (CONTRACT §26: captured, refused or voided; each wrote its event). */
  matured?: number;
  /** Wallets with due work left for a later round because another transaction held their lock. */
  skipped: number;
  /** The round took as many wallets or due items as it could: more may be due now. */
  fullRound: boolean;
  /** Largest delay between a lot's or hold's `expires_at` and the round that handled it; null when it handled none. */
  maxLagMs: number | null;
}

/** Where a sweeper's rounds come from: each feature with work that falls due (holds, lots) gives one. */
export interface SweepSource {
  sweep(batchSize: number): Promise<SweepRound>;
}

export interface ExpirySweeperOptions {
  /** Called after each round that committed events (expiries, `hold.expired`): the sequencer numbers them at once (CONTRACT §16: within 1 s). */
  onCommit?: () => void;
  /** Pause between sweeps, in ms; 0 schedules none (tests drive sweepOnce; the configuration refuses 0, src/config.ts). */
  intervalMs: number;
  /** Due lots taken per database transaction. */
  batchSize: number;
  /** Arms the pause before the next sweep (tests fire it themselves). */
  timer?: Timer;
}

/** What the sweeper has done, for logs and metrics (a gauge can read it at scrape time). */
export interface ExpirySweeperStats {
  intervalMs: number;
  batchSize: number;
  /** Completed sweeps since start. */
  sweeps: number;
  /** Expiry transactions this instance posted since start. */
  expiredTotal: number;
  /** Expiry transactions of the last sweep. */
  lastExpired: number;
  /** Holds this instance released (`hold.expired`) since start. */
  releasedTotal: number;
  /** Maturing holds this instance settled at their time (CONTRACT §26) since start. */
  maturedTotal: number;
  /** Largest delay from `expires_at` to the posting of its expiry in the last sweep that expired something. */
  lastLagMs: number | null;
  /** Duration of the last sweep. */
  lastSweepMs: number | null;
  lastSweepAt: Date | null;
}

/** A sweep stops after this many full rounds and lets the next one continue, so that one instance never sweeps forever. */
const MAX_ROUNDS_PER_SWEEP = 200;
/** CONTRACT §15 asks for expiry within 60 s; past half of it, the lag is worth a warning. */
const LAG_WARNING_MS = 30_000;
/** A sweep that left busy wallets (a posting held them) comes back this soon, whatever the interval: their holds are due within 60 s too. */
const BUSY_RETRY_MS = 100;
/**
 * The longest pause, reached by doubling the interval while sweeps find nothing and nothing is
 * posted here: an expiry that falls due in a quiet spell is posted within about 8 s of its
 * instant (CONTRACT §15 and §16 ask for 60 s); a posting here brings the interval back.
 */
export const IDLE_MAX_MS = 8_000;

/**
 * The background half of CONTRACT §15 and §16's `hold.expired`: every `intervalMs`, releases
 * the holds and posts the expiry of the lots whose `expires_at` has passed (its source's rounds:
 * holds_sweep then lots_sweep, wired in services.ts, each of `batchSize` wallets or lots per database transaction, repeated while rounds come back full or
 * make progress past busy wallets; busy wallets are retried after BUSY_RETRY_MS). Safe with any
 * number of instances, which share the work: each round takes each wallet with SKIP LOCKED and
 * re-reads under the lock, so each hold and lot expires exactly once. Correctness does not depend on it: a posting expires the due lots of the wallets it
 * touches first; the sweeper only bounds how long an untouched wallet shows expired points.
 */
export class ExpirySweeper {
  private cancelTimer: (() => void) | null = null;
  /** The pause armed now: the interval, doubled while sweeps find nothing. */
  private pauseMs = 0;
  /** Something was posted during the sweep under way. */
  private posted = false;
  private running: Promise<void> | null = null;
  private stopped = true;
  /** Set by stop(): a sweep under way finishes its current batch and returns. */
  private closing = false;
  private readonly counters: ExpirySweeperStats;

  constructor(
    /** Each feature's due work (holds, then lots: services.ts), swept in turn, each in its own transaction. */
    private readonly sources: readonly SweepSource[],
    private readonly logger: Logger,
    private readonly options: ExpirySweeperOptions,
  ) {
    this.counters = { intervalMs: options.intervalMs, batchSize: options.batchSize, sweeps: 0, expiredTotal: 0, lastExpired: 0, releasedTotal: 0, maturedTotal: 0, lastLagMs: null, lastSweepMs: null, lastSweepAt: null };
  }

  start(): void {
    if (this.options.intervalMs === 0) {
      this.logger.info('expiry sweeper not scheduled (interval 0)');
      return;
    }
    this.stopped = false;
    this.closing = false;
    this.logger.info({ intervalMs: this.options.intervalMs, batchSize: this.options.batchSize }, 'expiry sweeper started');
    this.schedule();
  }

  /** Stops scheduling and waits for a sweep under way (its current batch commits or rolls back whole). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.closing = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
    await this.running;
  }

  /** The pause before the next sweep, as armed now (tests). */
  nextPauseMs(): number {
    return this.pauseMs;
  }

  /**
   * Something was posted here (the posting queue's commit hook): it may have credited lots or
   * created holds that fall due soon, so a long quiet pause is cut back to the interval.
   */
  activity(): void {
    if (this.stopped || this.pauseMs <= this.options.intervalMs) return;
    if (this.running) this.posted = true; // the sweep under way arms the interval when it ends
    else this.schedule(this.options.intervalMs);
  }

  /** A copy of the counters (the metrics read it). */
  stats(): ExpirySweeperStats {
    return { ...this.counters };
  }

  /**
   * One sweep now: rounds until one comes back not full, or until one makes no progress while
   * wallets are busy (the next sweep retries them soon). Each round that wrote events wakes the
   * numbering (`onCommit`). Returns the expiries posted, holds released and wallets left busy.
   */
  async sweepOnce(): Promise<{ expired: number; released: number; matured: number; skipped: number; maxLagMs: number | null }> {
    const started = performance.now();
    let expired = 0;
    let released = 0;
    let matured = 0;
    let skipped = 0;
    let maxLagMs: number | null = null;
    for (let round = 0; round < MAX_ROUNDS_PER_SWEEP; round++) {
      let more = false;
      skipped = 0;
      for (const source of this.sources) {
        const result = await source.sweep(this.options.batchSize);
        expired += result.expired;
        released += result.released;
        matured += result.matured ?? 0;
        skipped += result.skipped;
        const progressed = result.expired + result.released + (result.matured ?? 0) > 0;
        // each half committed on its own: its events are numbered now, whatever the next half does
        if (progressed) this.options.onCommit?.();
        if (result.maxLagMs !== null) maxLagMs = Math.max(maxLagMs ?? 0, result.maxLagMs);
        more ||= result.fullRound || (result.skipped > 0 && progressed);
      }
      if (this.closing || !more) break;
    }
    const durationMs = Math.round(performance.now() - started);
    Object.assign(this.counters, {
      sweeps: this.counters.sweeps + 1,
      expiredTotal: this.counters.expiredTotal + expired,
      releasedTotal: this.counters.releasedTotal + released,
      maturedTotal: this.counters.maturedTotal + matured,
      lastExpired: expired,
      lastSweepMs: durationMs,
      lastSweepAt: new Date(),
      ...(maxLagMs !== null && { lastLagMs: maxLagMs }),
    });
    if (expired > 0 || released > 0 || matured > 0 || skipped > 0) {
      const level = maxLagMs !== null && maxLagMs > LAG_WARNING_MS ? 'warn' : 'info';
      this.logger[level]({ expired, released, matured, skipped, maxLagMs, durationMs, batchSize: this.options.batchSize, intervalMs: this.options.intervalMs }, 'expiry sweep');
    }
    return { expired, released, matured, skipped, maxLagMs };
  }

  private schedule(delayMs = this.options.intervalMs): void {
    if (this.stopped) return;
    this.cancelTimer?.();
    this.pauseMs = delayMs;
    this.cancelTimer = (this.options.timer ?? realTimer)(() => {
      this.cancelTimer = null;
      const { intervalMs } = this.options;
      // nothing found: the pause doubles up to IDLE_MAX_MS (never below the interval)
      let next = Math.min(Math.max(this.pauseMs, intervalMs) * 2, Math.max(intervalMs, IDLE_MAX_MS));
      this.running = this.sweepOnce()
        .then((result) => {
          if (result.expired + result.released + result.matured > 0) next = intervalMs;
          if (result.skipped > 0) next = Math.min(intervalMs, BUSY_RETRY_MS);
        })
        .catch((err: unknown) => {
          next = intervalMs;
          this.logger.error({ err }, 'expiry sweep failed; retried at the next interval');
        })
        .finally(() => {
          this.running = null;
          if (this.posted) next = Math.min(next, intervalMs);
          this.posted = false;
          this.schedule(next);
        });
    }, delayMs);
  }
}
