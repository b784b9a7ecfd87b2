import type { LedgerRepository } from './ledger.repository.js';
import { laneOf, type PostingRequest, type PostingResult } from './ledger.types.js';
import { isDeadlock, rolledBack } from '../shared/error-translation.js';

interface Waiting {
  request: PostingRequest;
  resolve(result: PostingResult): void;
  reject(error: unknown): void;
}

interface Lane {
  waiting: Waiting[];
  running: boolean;
}

const MAX_BATCH = 200;

const legsOf = (request: PostingRequest): number => (request.kind === 'group' ? request.legs.length : 1);

/**
 * Every posting request goes through here — transfers, seeds, holds, captures, voids,
 * reversals, and atomic groups of legs (batches), which `ledger_post` runs in a subtransaction
 * so a refused leg rolls back only its group. Generic over requests: it never looks inside one
 * except for its lane (the sender's wallet, `laneOf`).
 *
 * Coalesces postings per sender wallet. While one batch of a wallet is in the database, the
 * postings that arrive for that wallet wait and then go together as the next batch: one
 * database transaction, one lock acquisition of the hot row, yet a result per posting
 * (`ledger_post` refuses an element without affecting the others). A wallet with no batch in
 * flight posts at once, so uncontended transfers never wait.
 */
export class PostingQueue {
  private readonly lanes = new Map<string, Lane>();

  /** `onCommit` sees the results of every `ledger_post` call that answered (metrics: batch sizes, outcomes). */
  constructor(
    private readonly repository: LedgerRepository,
    private readonly onCommit: (results: readonly PostingResult[]) => void = () => undefined,
  ) {}

  submit(request: PostingRequest): Promise<PostingResult> {
    const key = laneOf(request);
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { waiting: [], running: false };
      this.lanes.set(key, lane);
    }
    const promise = new Promise<PostingResult>((resolve, reject) => lane.waiting.push({ request, resolve, reject }));
    if (!lane.running) void this.drain(key, lane);
    return promise;
  }

  private async drain(key: string, lane: Lane): Promise<void> {
    lane.running = true;
    while (lane.waiting.length > 0) {
      // at most MAX_BATCH legs per statement (a batch group counts its legs), never fewer than one request
      let take = 0;
      for (let legs = 0; take < lane.waiting.length; take++) {
        legs += legsOf(lane.waiting[take].request);
        if (take > 0 && legs > MAX_BATCH) break;
      }
      const batch = lane.waiting.splice(0, take);
      await this.postBatch(batch);
    }
    lane.running = false;
    this.lanes.delete(key);
  }

  private async postBatch(batch: Waiting[]): Promise<void> {
    try {
      const results = await this.postWithRetry(batch.map((w) => w.request));
      batch.forEach((w, i) => w.resolve(results[i]));
    } catch (error) {
      if (batch.length === 1 || !rolledBack(error)) {
        // A lost connection leaves the batch's outcome unknown: posting again could post twice.
        for (const waiting of batch) waiting.reject(error);
        return;
      }
      // The batch was rolled back; one bad element must not fail its neighbours: post them one by one.
      for (const waiting of batch) await this.postBatch([waiting]);
    }
  }

  private async postWithRetry(requests: PostingRequest[]): Promise<PostingResult[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        const results = await this.repository.post(requests);
        this.onCommit(results);
        return results;
      } catch (error) {
        // ledger_post locks in one global order, so a deadlock should not happen; if one ever
        // does, its statement was rolled back and may be sent again.
        if (!isDeadlock(error) || attempt >= 5) throw error;
      }
    }
  }
}
