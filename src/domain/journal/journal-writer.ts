import { CoalescingRunner } from '../shared/coalescing-runner.js';
import type { Logger } from '../../logger.js';
import { entryHash, GENESIS_HASH } from './journal-chain.js';
import type { JournalRepository } from './journal.repository.js';
import type { NewEntry } from './journal.types.js';

/** Source rows (events, backlog rows) per turn; a longer backlog takes several turns. */
export const JOURNAL_BATCH = 2_000;

/**
 * Extends every project's journal (CONTRACT §22) after the event numbering, off the posting's
 * path: the sequencer pokes it after each numbering run (src/domain/outbox/event-sequencer.ts),
 * and at every tick while this writer is `behind` (its last run failed or left a backlog; the
 * tick stays at one second meanwhile), so a transaction has its entry moments after its commit,
 * at most a tick after an instance died before journaling it, and a second after the database
 * is back when a run failed. Like the sequencer, a run under way is
 * followed by exactly one more, so pokes during a run coalesce, and numbering never waits for the
 * journal. Any number of instances may run it: a turn's write applies only if no other write
 * came between its read and its write (the cursor's `turns`, JournalRepository.write), so
 * entries always extend the heads they were computed from: one chain per project. A turn is two
 * statements (one when nothing waits), without a transaction of its own.
 */
export class JournalWriter {
  private readonly runner = new CoalescingRunner(() => this.run());
  private written = 0;
  private lagging = false;

  constructor(
    private readonly repository: JournalRepository,
    private readonly logger: Logger,
  ) {}

  /** Answers pokes from now on (the app starts it before the sequencer). */
  start(): void {
    this.runner.start();
  }

  /** Something was numbered: journal it now (or right after the run under way). */
  poke(): void {
    this.runner.poke();
  }

  /** Journals everything numbered now; resolves when done (shutdown, tests). */
  flush(): Promise<void> {
    return this.runner.flush();
  }

  /** Stops answering pokes and waits for a run under way. */
  stop(): Promise<void> {
    return this.runner.stop();
  }

  /** The last run failed or stopped before the end: the sequencer's next tick pokes again. */
  behind(): boolean {
    return this.lagging;
  }

  /** Entries this instance wrote since start (metrics, tests). */
  count(): number {
    return this.written;
  }

  private async run(): Promise<void> {
    try {
      let more = true;
      while (more && !this.runner.stopped) more = await this.turn();
      this.lagging = more;
    } catch (err) {
      this.lagging = true;
      this.logger.error({ err }, 'journaling failed; retried at the next tick (every second until it succeeds)');
    }
  }

  /**
   * One turn: up to JOURNAL_BATCH source rows read, hashed and written in two statements;
   * whether more may wait (a full batch; the backlog, which the stream follows; or a turn lost
   * to another instance, whose entries the next read starts from).
   */
  private async turn(): Promise<boolean> {
    const { turns, batch, heads } = await this.repository.next(JOURNAL_BATCH);
    if (batch.scanned === 0) return false;
    const entries: NewEntry[] = batch.transactions.map((transaction) => {
      const head = heads.get(transaction.projectId) ?? { seq: 0n, hash: GENESIS_HASH };
      const entry = { projectId: transaction.projectId, seq: head.seq + 1n, transactionId: transaction.id, hash: entryHash(head.hash, transaction), prevHash: head.hash };
      heads.set(transaction.projectId, { seq: entry.seq, hash: entry.hash });
      return entry;
    });
    if (!(await this.repository.write(entries, batch, turns))) return true;
    this.written += entries.length;
    return batch.scanned === JOURNAL_BATCH || batch.source === 'backlog';
  }
}
