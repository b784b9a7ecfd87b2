import type { NotificationChannel } from '../../db/notifications.js';
import type { Logger } from '../../logger.js';
import type { OutboxRepository } from '../outbox/outbox.repository.js';
import type { EventRepository } from './event.repository.js';
import type { EventService } from './event.service.js';
import type { LedgerEventView } from './event.types.js';

export type EventListener = (events: readonly LedgerEventView[]) => void;

/** Events read per statement while catching up. */
const PAGE = 500;
/** The safety net for a missed notification: the stream is re-read at least this often while someone listens. */
const TICK_MS = 5_000;

/**
 * This instance's view of the event stream (CONTRACT §16): follows the global `stream_pos` from
 * where it stood at start, woken by the sequencer's NOTIFY on `ledger_events` (from any instance),
 * after a dropped listening connection (notifications may have been missed) and by a slow tick,
 * and hands every numbered event, in stream order and exactly once, to each listener
 * (subscriptions, webhook deliveries). With no listener it only moves its cursor to the end, so
 * an instance nobody subscribes to renders nothing; it never moves past an event a listener
 * registered at the time still needs (a listener gets every event numbered after the cursor as
 * it stood when it subscribed).
 */
export class EventHub {
  private readonly listeners = new Set<EventListener>();
  private cursor = '0';
  private reading: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: Array<() => void> = [];
  private started = false;
  /** Bumped by every subscribe: a jump to the top read before a listener came must not be made after it. */
  private subscriptions = 0;

  constructor(
    private readonly repository: EventRepository,
    private readonly outbox: OutboxRepository,
    private readonly events: EventService,
    private readonly notifications: NotificationChannel,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.cursor = await this.repository.streamTop();
    this.started = true;
    this.unsubscribe.push(await this.notifications.subscribe('ledger_events', () => this.wake()));
    this.unsubscribe.push(this.notifications.onReconnect(() => this.wake()));
    this.tick();
  }

  async stop(): Promise<void> {
    this.started = false;
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.reading;
  }

  /** Calls `listener` with every event numbered from now on; returns the unsubscribe. A listener must not throw or block. */
  subscribe(listener: EventListener): () => void {
    this.subscriptions += 1;
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Where a new subscriber starts: the committed events are numbered first (numbering follows the
   * commit, in the background), then the stream's top is read. Events at or below it were
   * committed before the subscription and are not its to receive, even if this hub delivers them
   * a moment later; everything after it is.
   */
  async startingPoint(): Promise<bigint> {
    await this.outbox.sequenceCommitted();
    return BigInt(await this.repository.streamTop());
  }

  /** The stream position this instance has delivered up to. */
  position(): string {
    return this.cursor;
  }

  /** Reads what is new now (or right after the read under way). Resolves when that read is done. */
  wake(): Promise<void> {
    if (!this.started) return Promise.resolve();
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = this.read().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  private async read(): Promise<void> {
    do {
      this.again = false;
      try {
        if (this.listeners.size === 0) {
          // The top is read while nobody listens; a listener that subscribes meanwhile needs every
          // event after the cursor as it stood then, so the jump is made only if none did.
          const before = this.subscriptions;
          const top = await this.repository.streamTop();
          if (this.subscriptions === before) this.cursor = top;
          else this.again = true;
          continue;
        }
        let page = this.repository.stream(this.cursor, PAGE);
        for (;;) {
          const rows = await page;
          if (rows.length === 0) break;
          const more = rows.length === PAGE && this.started;
          // A burst is read ahead: the next page's statement runs while this page is rendered and
          // handed over. The cursor moves only once a page is handed over, so a failure re-reads from there.
          if (more) {
            page = this.repository.stream(rows[rows.length - 1].streamPos, PAGE);
            page.catch(() => undefined); // awaited (and its failure reported) on the next turn of this loop
          }
          const events = await this.events.render(rows);
          this.cursor = rows[rows.length - 1].streamPos;
          for (const listener of [...this.listeners]) {
            try {
              listener(events);
            } catch (err) {
              this.logger.error({ err }, 'an event listener threw; it keeps receiving');
            }
          }
          if (!more) break;
        }
      } catch (err) {
        this.logger.error({ err, position: this.cursor }, 'reading the event stream failed; retried at the next notification or tick');
      }
    } while (this.again && this.started);
  }

  private tick(): void {
    if (!this.started) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.listeners.size > 0) void this.wake();
      this.tick();
    }, TICK_MS);
    this.timer.unref();
  }
}
