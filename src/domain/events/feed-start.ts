import type { LedgerEventView } from './event.types.js';

/**
 * Where one subscription starts (CONTRACT §16, clarified with part three): fixed when its
 * `subscribe` message arrives, before any asynchronous work. Taken synchronously, it is listening
 * from that instant: it holds every event the hub hands over while its starting point (the
 * committed events numbered, then the stream's top) is computed and while the feed's access is
 * checked. The feed opened from it replays the held events after the starting point, then takes
 * the live ones in the same turn, so nothing between the message and the open feed is lost, and
 * nothing committed before it is sent.
 *
 * Held events are shared references, bounded by `capacity`: a start that overflows it opens a
 * feed that is at once too slow (its connection is closed, as for any subscriber left behind).
 */
export class FeedStart {
  private held: (readonly LedgerEventView[])[] = [];
  private count = 0;
  private overflowed = false;
  private released = false;

  constructor(
    /** The stream position after which this subscription's events are numbered. */
    readonly after: Promise<bigint>,
    private readonly capacity: number,
    private readonly onRelease: (start: FeedStart) => void,
  ) {
    after.catch(() => undefined); // a start released before anyone awaited it must not leave an unhandled rejection
  }

  /** The hub's events since the start (called by the feed service's dispatch). */
  hold(events: readonly LedgerEventView[]): void {
    if (this.released || this.overflowed) return;
    this.count += events.length;
    if (this.count > this.capacity) {
      this.overflowed = true;
      this.held = [];
      return;
    }
    this.held.push(events);
  }

  /** The held events numbered after `after`, in stream order, or null if more arrived than it could hold; releases the start. */
  take(after: bigint): LedgerEventView[] | null {
    const held = this.overflowed ? null : this.held.flat().filter((event) => BigInt(event.streamPos) > after);
    this.release();
    return held;
  }

  /** Stops holding (the subscription opened, failed or went away). Safe to call more than once. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.held = [];
    this.onRelease(this);
  }
}
