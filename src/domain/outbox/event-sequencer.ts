import type { NotificationChannel } from '../../db/notifications.js';
import type { Logger } from '../../logger.js';
import type { OutboxRepository } from './outbox.repository.js';
import { CoalescingRunner } from '../shared/coalescing-runner.js';
import { realTimer, type Timer } from '../shared/timer.js';

/**
 * The safety net's period while the cluster is busy: events committed by an instance that died
 * before numbering them are numbered by the next tick of any instance.
 */
export const TICK_MS = 1_000;
/**
 * The longest period, reached by doubling while the cluster is quiet (no commit here, no
 * numbering anywhere): an instance that dies right after the first commit following a quiet
 * spell has its events numbered within 4 s, so their first webhook attempt still comes within
 * 5 s of the commit (CONTRACT §16).
 */
export const TICK_MAX_MS = 4_000;

/**
 * Numbers committed events (ledger_sequence_events) right after each commit that wrote some.
 * The instance that committed wakes it (`poke`, from the posting queue's commit hook and the
 * other writers); a run under way is followed by exactly one more, so pokes arriving during a run
 * coalesce. Numbering is serialised in the database (an advisory lock), so any number of
 * instances may run it; each run ends with one NOTIFY on `ledger_events` that every instance's
 * EventHub follows (and that tells this sequencer the cluster is busy: `heard`).
 *
 * A tick numbers what a dead instance left behind: every second while anything happens (a poke,
 * a notification, a tick that found events), doubling up to TICK_MAX_MS while nothing does, so
 * an idle service sends one statement every 4 s here. The journal writer follows each run that
 * numbered events, the first tick after any activity (an instance that died between its
 * numbering and its journaling), and every tick while it is behind (a failed run, a backlog
 * left; the tick stays at TICK_MS meanwhile); an idle tick otherwise leaves it asleep. A failed
 * numbering also keeps the tick at TICK_MS.
 */
/**
 * What follows each numbering run (the journal writer, CONTRACT §22): told to run after a run
 * that numbered events, and asked whether it is behind. An interface here, so that the outbox on
 * the ground floor knows nothing of the features that follow it.
 */
export interface NumberingFollower {
  poke(): void;
  behind(): boolean;
}

export class EventSequencer {
  private readonly runner = new CoalescingRunner(() => this.run());
  private cancelTick: (() => void) | null = null;
  private numbered = 0;
  private periodMs = TICK_MS;
  /** Something happened since the last tick: the next period is TICK_MS again, and the tick wakes the journal. */
  private active = false;
  private ticking = false;
  /** Stopped: no tick is armed again, even by the runs of a flush after stop (the shutdown order). */
  private closed = false;

  constructor(
    private readonly repository: OutboxRepository,
    private readonly logger: Logger,
    private readonly journal?: NumberingFollower,
    private readonly timer: Timer = realTimer,
  ) {}

  start(): void {
    this.closed = false;
    this.runner.start();
    this.arm(TICK_MS);
  }

  /** Something committed events: number them now (or right after the run under way). */
  poke(): void {
    this.activity();
    this.runner.poke();
  }

  /** Another run numbered events (a `ledger_events` notification, from any instance): the cluster is busy. */
  heard(): void {
    this.activity();
  }

  /** Hears every instance's numbering (and a re-connection, after which some may have been missed); answers the unsubscribe. */
  async follow(notifications: NotificationChannel): Promise<() => void> {
    const off = [await notifications.subscribe('ledger_events', () => this.heard()), notifications.onReconnect(() => this.heard())];
    return () => off.forEach((unsubscribe) => unsubscribe());
  }

  /** Numbers what is committed now; resolves when done (shutdown, tests, the CLI). */
  flush(): Promise<void> {
    return this.runner.flush();
  }

  /** Stops ticking and waits for a run under way. */
  async stop(): Promise<void> {
    this.closed = true;
    const stopped = this.runner.stop();
    this.cancelTick?.();
    this.cancelTick = null;
    await stopped;
    // a tick that fired during the last run would make a later flush's run re-arm
    this.ticking = false;
  }

  /** Events this instance numbered since start (metrics). */
  count(): number {
    return this.numbered;
  }

  /** The period of the tick armed now (tests). */
  tickPeriodMs(): number {
    return this.periodMs;
  }

  private activity(): void {
    this.active = true;
    // a long quiet period armed: shorten it to TICK_MS from now
    if (this.periodMs > TICK_MS && !this.closed && !this.runner.stopped) this.arm(TICK_MS);
  }

  private async run(): Promise<void> {
    const tick = this.ticking;
    this.ticking = false;
    let count = 0;
    try {
      await this.repository.sequenceCommitted({ more: () => !this.runner.stopped, numbered: (n) => (count += n) });
    } catch (err) {
      this.logger.error({ err }, 'numbering events failed; retried at the next commit or tick');
      this.active = true; // the next tick comes in TICK_MS
    }
    this.numbered += count;
    if (count > 0) this.active = true;
    // the journal (CONTRACT §22) follows what is numbered now, in its own run
    const journalBehind = this.journal?.behind() ?? false;
    if (count > 0 || (tick && (this.active || journalBehind))) this.journal?.poke();
    if (tick && !this.closed && !this.runner.stopped) {
      const next = this.active || journalBehind ? TICK_MS : Math.min(this.periodMs * 2, TICK_MAX_MS);
      this.active = false;
      this.arm(next);
    }
  }

  private arm(ms: number): void {
    if (this.closed) return;
    this.cancelTick?.();
    this.periodMs = ms;
    this.cancelTick = this.timer(() => {
      this.cancelTick = null;
      if (this.closed || this.runner.stopped) return;
      this.ticking = true;
      this.runner.poke();
    }, ms);
  }
}
