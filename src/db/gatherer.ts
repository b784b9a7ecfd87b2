import { sharedAcrossRequests } from './request-connections.js';
interface Waiting<K, V> {
  key: K;
  resolve(value: V): void;
  reject(error: unknown): void;
}

export interface GathererOptions {
  /** Batches running at once. */
  inFlight: number;
  /** Keys per batch at most. */
  max: number;
  /** Whether a failed batch goes again key by key (default: always). */
  splits?: (error: unknown) => boolean;
}

/**
 * Turns many concurrent look-ups into few statements. A key that finds a free slot runs at once,
 * alone (no waiting when the database is idle); while every slot is taken, keys gather and the
 * next free slot runs all of them in one statement (`run`: one value per key, in order). A
 * statement costs PostgreSQL and Node more than the rows it reads, so under load this is where
 * the time goes.
 *
 * Only for reads: a failed batch is retried key by key, so one bad key fails alone — unless
 * `splits` says the error is the whole batch's (a statement time-out: each key alone would wait as long).
 */
export class Gatherer<K, V> {
  private readonly waiting: Waiting<K, V>[] = [];
  private inFlight = 0;

  constructor(
    private readonly run: (keys: K[]) => Promise<V[]>,
    private readonly options: GathererOptions,
  ) {}

  load(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      this.waiting.push({ key, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.inFlight < this.options.inFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.options.max);
      this.inFlight += 1;
      void this.runBatch(batch).then((answer) => {
        this.inFlight -= 1;
        // the next batch goes to the database first: PostgreSQL works on it while Node answers this one
        this.dispatch();
        answer();
      });
    }
  }

  /** Runs a batch and returns how to answer its keys. */
  private async runBatch(batch: Waiting<K, V>[]): Promise<() => void> {
    try {
      // a batch answers many requests: it takes none of the starting request's connection permits
      const values = await sharedAcrossRequests(() => this.run(batch.map((w) => w.key)));
      return () => batch.forEach((w, i) => w.resolve(values[i]));
    } catch (error) {
      if (batch.length === 1 || this.options.splits?.(error) === false) return () => batch.forEach((w) => w.reject(error));
      for (const waiting of batch) (await this.runBatch([waiting]))();
      return () => undefined;
    }
  }
}
