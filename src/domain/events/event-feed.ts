import type { LedgerEventView } from './event.types.js';

/** Why a feed ended early: its consumer did not keep up and its buffer filled. */
export class SubscriberTooSlowError extends Error {
  constructor(readonly capacity: number) {
    super(`the subscriber fell ${capacity} events behind and was dropped`);
    this.name = 'SubscriberTooSlowError';
  }
}

type Waiter = { resolve: (result: IteratorResult<LedgerEventView>) => void; reject: (error: unknown) => void };

/**
 * One subscriber's events, in the order the hub delivered them, as an async iterator (what
 * GraphQL subscriptions consume). The buffer between the hub and the consumer is bounded: when
 * `capacity` events wait unread, the feed drops them, detaches, calls `onOverflow` (the transport
 * closes the connection) and its iterator throws SubscriberTooSlowError. Offering never blocks,
 * so a slow consumer never holds up the hub, postings or other subscribers.
 */
export class EventFeed implements AsyncIterableIterator<LedgerEventView> {
  private readonly queue: LedgerEventView[] = [];
  private waiter: Waiter | null = null;
  private failure: Error | null = null;
  private ended = false;

  constructor(
    private readonly capacity: number,
    private readonly detach: (feed: EventFeed) => void,
    private readonly onOverflow?: () => void,
  ) {}

  /** Called by the hub's dispatch: cheap, never throws, never waits. */
  offer(event: LedgerEventView): void {
    if (this.ended) return;
    if (this.waiter) {
      const { resolve } = this.waiter;
      this.waiter = null;
      resolve({ value: event, done: false });
    } else if (this.queue.length < this.capacity) {
      this.queue.push(event);
    } else {
      this.overflow();
    }
  }

  /** Events waiting to be read (tests, metrics). */
  get backlog(): number {
    return this.queue.length;
  }

  next(): Promise<IteratorResult<LedgerEventView>> {
    if (this.queue.length) return Promise.resolve({ value: this.queue.shift()!, done: false });
    if (this.failure) {
      const failure = this.failure;
      this.failure = null;
      return Promise.reject(failure);
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  /** The consumer is done (the client completed the subscription or disconnected). */
  return(): Promise<IteratorResult<LedgerEventView>> {
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** Ends the feed: a waiting consumer sees the end, queued events are dropped. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.queue.length = 0;
    this.detach(this);
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.resolve({ value: undefined, done: true });
  }

  /** The subscriber is too far behind: the feed ends, its consumer gets SubscriberTooSlowError. */
  overflow(): void {
    if (this.ended) return;
    this.end();
    this.failure = new SubscriberTooSlowError(this.capacity);
    this.onOverflow?.();
  }
}
