import { outsideStatementScope } from '../../db/statement-counter.js';
import type { Logger } from '../../logger.js';
import { SEQUENCE_BATCH, type EventRepository } from './event.repository.js';
import type { JournalWriter } from '../journal/journal-writer.js';

/** The safety net: events committed by an instance that died before waking a sequencer are numbered by the next tick of any instance. */
const TICK_MS = 1_000;

/**
 * Numbers committed events (ledger_sequence_events) right after each commit that wrote some.
 * The instance that committed wakes it (`poke`, from the posting queue's commit hook and the
 * other writers); a run under way is followed by exactly one more, so pokes arriving during a run
 * coalesce. Numbering is serialised in the database (an advisory lock), so any number of
 * instances may run it; each run ends with one NOTIFY on `ledger_events` that every instance's
 * EventHub follows.
 */
export class EventSequencer {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private numbered = 0;

  constructor(
    private readonly repository: EventRepository,
    private readonly logger: Logger,
    private readonly journal?: JournalWriter,
  ) {}

  start(): void {
    this.stopped = false;
    this.tick();
  }

  /** Something committed events: number them now (or right after the run under way). */
  poke(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    // the request that committed only wakes the sequencer: its statements are not the request's
    this.running = outsideStatementScope(() => this.run()).finally(() => {
      this.running = null;
    });
  }

  /** Numbers what is committed now; resolves when done (shutdown, tests, the CLI). */
  async flush(): Promise<void> {
    await this.running;
    const stopped = this.stopped;
    this.stopped = false;
    try {
      this.poke();
      await this.running;
    } finally {
      this.stopped = stopped;
    }
  }

  /** Stops ticking and waits for a run under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Events this instance numbered since start (metrics). */
  count(): number {
    return this.numbered;
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      try {
        let numbered: number;
        do {
          numbered = await this.repository.sequence(SEQUENCE_BATCH);
          this.numbered += numbered;
        } while (numbered === SEQUENCE_BATCH && !this.stopped);
      } catch (err) {
        this.logger.error({ err }, 'numbering events failed; retried at the next commit or tick');
      }
      this.journal?.poke(); // the journal (CONTRACT §22) follows what is numbered now, in its own run
    } while (this.again && !this.stopped);
  }

  private tick(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.poke();
      this.tick();
    }, TICK_MS);
    this.timer.unref();
  }
}
