import { outsideStatementScope } from '../../db/statement-counter.js';

/**
 * Runs background work on demand, off the caller's path: `poke` starts a run, and a poke during
 * a run is followed by exactly one more run once it ends, so any number of pokes coalesce. The
 * work's statements are never the poking request's (outsideStatementScope). Stopped (the
 * initial state), pokes are ignored. `work` handles its own errors.
 */
export class CoalescingRunner {
  private running: Promise<void> | null = null;
  private again = false;
  private isStopped = true;

  constructor(private readonly work: () => Promise<void>) {}

  /** True until `start` and after `stop`: the work should end its current run early. */
  get stopped(): boolean {
    return this.isStopped;
  }

  /** Answers pokes from now on. */
  start(): void {
    this.isStopped = false;
  }

  /** Runs the work now, or right after the run under way. */
  poke(): void {
    if (this.isStopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = outsideStatementScope(() => this.run()).finally(() => {
      this.running = null;
      // a poke between the last turn's check and here would be lost: it runs now
      if (this.again) this.poke();
    });
  }

  /** One complete run from now, even when stopped; resolves when it is done (shutdown, tests, the CLI). */
  async flush(): Promise<void> {
    await this.running;
    const stopped = this.isStopped;
    this.isStopped = false;
    try {
      this.poke();
      // a poke after the run's last check starts another run in its `finally`: wait for it too,
      // or a stopped runner's run would outlive flush (and shutdown close the pool under it)
      while (this.running) await this.running;
    } finally {
      this.isStopped = stopped;
    }
  }

  /** Stops answering pokes and waits for a run under way. */
  async stop(): Promise<void> {
    this.isStopped = true;
    await this.running;
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      await this.work();
    } while (this.again && !this.isStopped);
  }
}
