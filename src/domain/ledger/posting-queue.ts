import { sharedAcrossRequests } from '../../db/request-connections.js';
import type { PostingRepository } from './posting.repository.js';
import { walletsOf, type PostingRequest, type PostingResult } from './ledger.types.js';
import { isDeadlock, isStatementCut, rolledBack } from '../shared/error-translation.js';

interface Waiting {
  request: PostingRequest;
  /** The wallet rows `ledger_post` will lock for it (every leg's sender and receiver). */
  wallets: readonly string[];
  legs: number;
  resolve(result: PostingResult): void;
  reject(error: unknown): void;
}

/** How to answer a batch's requests once it is done; `cut`: a batch of several whose statement was cut (retryAlone). */
type Outcome = (() => void) | 'cut';

export interface PostingQueueOptions {
  /** Batches in the database at once (each one `ledger_post` call on its own connection). */
  pipeline?: number;
  /** Legs per `ledger_post` call at most (a batch group counts its legs; a batch always takes at least one request). */
  maxLegs?: number;
}

const MAX_LEGS = 200;

/** A request with no idempotency key on it or on any of its legs. */
const withoutKeys = (request: PostingRequest): PostingRequest =>
  request.kind === 'group' ? { ...request, legs: request.legs.map((leg) => ({ ...leg, requestKey: null })) } : { ...request, requestKey: null };

const legsOf = (request: PostingRequest): number => (request.kind === 'group' ? request.legs.length : 1);

/**
 * Group commit. Every posting request goes through here — transfers, seeds, holds, captures,
 * voids, reversals, and atomic groups of legs (batches, which `ledger_post` runs in a
 * subtransaction so a refused leg rolls back only its group). It never looks inside a request
 * except for the wallets it touches.
 *
 * At most `pipeline` batches are in the database at once. A request that finds a free slot and
 * no in-flight or queued request on its wallets posts at once, alone: uncontended postings never
 * wait. Otherwise it queues, and when a batch commits, every queued request that touches no
 * wallet of a batch still in flight leaves together as the next batch: one `ledger_post` call,
 * one database transaction, one commit, yet a result per request (`ledger_post` refuses an
 * element without affecting the others), given only once that commit is done.
 *
 * Batches in flight never share a wallet, so they never wait on each other's row locks (a hot
 * wallet's postings coalesce into one batch at a time, as before). Within a batch, `ledger_post`
 * locks every wallet in id order first, so batches of several instances cannot deadlock either.
 * Requests on one wallet leave in arrival order: a request passed over because its wallets were
 * busy keeps every later request on those wallets behind it.
 *
 * A batch cut by the statement time-out (CONTRACT §18) frees its slot and goes again request by
 * request (`retryAlone`): only the requests cut on their own answer `timeout`.
 */
export class PostingQueue {
  private readonly waiting: Waiting[] = [];
  /** Wallets of the batches in flight. */
  private readonly busy = new Set<string>();
  /** Wallets of the waiting requests, with how many of them touch each. */
  private readonly queued = new Map<string, number>();
  private inFlight = 0;
  private readonly pipeline: number;
  private readonly maxLegs: number;

  /** `onCommit` sees the results of every `ledger_post` call that answered (metrics: batch sizes, outcomes). */
  constructor(
    private readonly repository: PostingRepository,
    private readonly onCommit: (results: readonly PostingResult[]) => void = () => undefined,
    options: PostingQueueOptions = {},
  ) {
    // the service always passes LEDGER_POSTING_PIPELINE (src/config.ts DEFAULTS); a queue built bare (unit tests) posts one batch at a time
    this.pipeline = Math.max(1, options.pipeline ?? 1);
    this.maxLegs = Math.max(1, options.maxLegs ?? MAX_LEGS);
  }

  submit(request: PostingRequest): Promise<PostingResult> {
    return new Promise<PostingResult>((resolve, reject) => {
      const waiting: Waiting = { request, wallets: walletsOf(request), legs: legsOf(request), resolve, reject };
      // Nothing queued can leave while every slot is taken or while it waits on busy wallets, so
      // only the newcomer needs a look: it leaves now only if no one is ahead of it on its wallets.
      if (this.inFlight < this.pipeline && waiting.wallets.every((w) => !this.busy.has(w) && !this.queued.has(w))) {
        this.start([waiting]);
        return;
      }
      this.waiting.push(waiting);
      for (const wallet of waiting.wallets) this.queued.set(wallet, (this.queued.get(wallet) ?? 0) + 1);
    });
  }

  /**
   * Posts `request` and answers with `answer(result)`, run once the posting has committed — or,
   * with `dryRun` (CONTRACT §24), the same `ledger_post` call alone in its own database transaction
   * that always rolls back, `answer` inside it (it reads what the posting wrote: a reversal, a
   * hold). A dry run never joins a batch: its rollback must never take a real posting with it,
   * nor a real posting's refusal decide its answer. It waits for the wallets' row locks like any
   * posting, so it checks the state the wallets have when it gets them (every rule of
   * `ledger_post` — funds, status, references, reversal caps, and limits when they come — runs as
   * for a real call). It carries no request key: a dry run neither reads nor leaves an idempotency
   * record. Nothing is reported to `onCommit` (metrics, the event sequencer): nothing committed.
   */
  post<T>(request: PostingRequest, dryRun: boolean, answer: (result: PostingResult) => T | Promise<T>): Promise<T> {
    if (!dryRun) return this.submit(request).then(answer);
    return this.repository.rolledBack(async () => answer(await this.rehearse(withoutKeys(request))));
  }

  /** `ledger_post` of one request in the caller's (rolled-back) transaction; sent again on a deadlock like any batch. */
  private async rehearse(request: PostingRequest): Promise<PostingResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        const [result] = await this.repository.post([request]);
        return result;
      } catch (error) {
        if (!isDeadlock(error) || attempt >= 5) throw error;
      }
    }
  }

  private start(batch: Waiting[]): void {
    this.inFlight += 1;
    for (const waiting of batch) for (const wallet of waiting.wallets) this.busy.add(wallet);
    // a batch answers many requests: it takes none of the starting request's connection permits
    void sharedAcrossRequests(() => this.postBatch(batch)).then((outcome) => {
      this.inFlight -= 1;
      if (outcome === 'cut') {
        this.retryAlone(batch);
        this.dispatch();
        return;
      }
      for (const waiting of batch) for (const wallet of waiting.wallets) this.busy.delete(wallet);
      // the next batch goes to the database first: PostgreSQL works on it while Node answers this one
      this.dispatch();
      outcome();
    });
  }

  /**
   * A batch whose statement was cut (LEDGER_STATEMENT_TIMEOUT_MS: a lock wait or a slow plan, of
   * which request is unknown) goes again one request at a time, each after the earlier ones on its
   * wallets, so that only a request cut alone answers `timeout` and the others answer as if it had
   * not been there. Outside the pipeline's slots: postings on other wallets go on meanwhile, and a
   * wallet stays busy until its last request here has answered (arrival order per wallet holds).
   */
  private retryAlone(batch: Waiting[]): void {
    const left = new Map<string, number>();
    for (const waiting of batch) for (const wallet of waiting.wallets) left.set(wallet, (left.get(wallet) ?? 0) + 1);
    const lastOn = new Map<string, Promise<void>>();
    for (const waiting of batch) {
      const earlier = waiting.wallets.flatMap((wallet) => lastOn.get(wallet) ?? []);
      const done = Promise.all(earlier).then(async () => {
        const outcome = await sharedAcrossRequests(() => this.postBatch([waiting]));
        for (const wallet of waiting.wallets) {
          const remaining = left.get(wallet)! - 1;
          if (remaining > 0) left.set(wallet, remaining);
          else this.busy.delete(wallet);
        }
        this.dispatch();
        if (outcome !== 'cut') outcome(); // a single request is never 'cut': it is rejected
      });
      for (const wallet of waiting.wallets) lastOn.set(wallet, done);
    }
  }

  /** Starts batches of queued requests while slots are free and some request can leave. */
  private dispatch(): void {
    while (this.inFlight < this.pipeline && this.waiting.length > 0) {
      const batch = this.take();
      if (batch.length === 0) return;
      this.start(batch);
    }
  }

  /** The queued requests that may leave now, in arrival order, up to `maxLegs` legs; removed from the queue. */
  private take(): Waiting[] {
    const batch: Waiting[] = [];
    const passedOver = new Set<string>();
    const kept: Waiting[] = [];
    let legs = 0;
    for (const waiting of this.waiting) {
      const full = batch.length > 0 && legs + waiting.legs > this.maxLegs;
      if (full || waiting.wallets.some((w) => this.busy.has(w) || passedOver.has(w))) {
        for (const wallet of waiting.wallets) passedOver.add(wallet);
        kept.push(waiting);
        continue;
      }
      batch.push(waiting);
      legs += waiting.legs;
    }
    this.waiting.length = 0;
    this.waiting.push(...kept);
    for (const waiting of batch) {
      for (const wallet of waiting.wallets) {
        const left = this.queued.get(wallet)! - 1;
        if (left === 0) this.queued.delete(wallet);
        else this.queued.set(wallet, left);
      }
    }
    return batch;
  }

  /** Posts a batch (committed, or known to be rolled back) and returns how to answer its requests. */
  private async postBatch(batch: Waiting[]): Promise<Outcome> {
    try {
      const results = await this.postWithRetry(batch.map((w) => w.request));
      committed(this.onCommit, results);
      return () => batch.forEach((w, i) => w.resolve(results[i]));
    } catch (error) {
      if (batch.length === 1 || !rolledBack(error)) {
        // A lost connection leaves the batch's outcome unknown: posting again could post twice.
        return () => batch.forEach((w) => w.reject(error));
      }
      if (isStatementCut(error)) return 'cut';
      // The batch was rolled back; one bad element must not fail its neighbours: post them one by one.
      for (const waiting of batch) {
        const outcome = await this.postBatch([waiting]);
        if (outcome !== 'cut') outcome();
      }
      return () => undefined;
    }
  }

  private async postWithRetry(requests: PostingRequest[]): Promise<PostingResult[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.repository.post(requests);
      } catch (error) {
        // ledger_post locks wallets in one global order, so a deadlock should not happen; if one
        // ever does (two batches inserting the same references in opposite orders), its statement
        // was rolled back and may be sent again.
        if (!isDeadlock(error) || attempt >= 5) throw error;
      }
    }
  }
}

/**
 * Runs the commit hook (metrics, waking the sequencer) where it cannot change the answer: the batch
 * is committed, so a hook that throws must neither answer its requests 500 nor make the queue post
 * them again. Its failure is reported as a process warning (the queue has no logger of its own).
 */
function committed(onCommit: (results: readonly PostingResult[]) => void, results: readonly PostingResult[]): void {
  try {
    onCommit(results);
  } catch (error) {
    process.emitWarning(`the commit hook failed after a committed batch: ${error instanceof Error ? error.message : String(error)}`, 'PostingQueueCommitHook');
  }
}
