import type { Logger } from '../../logger.js';
import type { EventRepository } from './event.repository.js';
import { CoalescingRunner } from '../shared/coalescing-runner.js';
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
  private readonly runner = new CoalescingRunner(() => this.run());
  private timer: NodeJS.Timeout | null = null;
  private numbered = 0;

  constructor(
    private readonly repository: EventRepository,
    private readonly logger: Logger,
    private readonly journal?: JournalWriter,
  ) {}

  start(): void {
    this.runner.start();
    this.tick();
  }

  /** Something committed events: number them now (or right after the run under way). */
  poke(): void {
    this.runner.poke();
  }

  /** Numbers what is committed now; resolves when done (shutdown, tests, the CLI). */
  flush(): Promise<void> {
    return this.runner.flush();
  }

  /** Stops ticking and waits for a run under way. */
  async stop(): Promise<void> {
    const stopped = this.runner.stop();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await stopped;
  }

  /** Events this instance numbered since start (metrics). */
  count(): number {
    return this.numbered;
  }

  private async run(): Promise<void> {
    try {
      await this.repository.sequenceCommitted({ more: () => !this.runner.stopped, numbered: (count) => (this.numbered += count) });
    } catch (err) {
      this.logger.error({ err }, 'numbering events failed; retried at the next commit or tick');
    }
    this.journal?.poke(); // the journal (CONTRACT §22) follows what is numbered now, in its own run
  }

  private tick(): void {
    if (this.runner.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.poke();
      this.tick();
    }, TICK_MS);
    this.timer.unref();
  }
}
