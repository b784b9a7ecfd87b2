import { z } from 'zod';
import type { Principal } from '../auth/api-key.service.js';
import type { ProjectService } from '../projects/project.service.js';
import { parseInput } from '../shared/validation.js';
import type { WalletService } from '../wallets/wallet.service.js';
import type { WalletView } from '../wallets/wallet.types.js';
import { EventFeed } from './event-feed.js';
import { EVENT_TYPES, type EventType } from '../outbox/event-type.js';
import type { LedgerEventView } from './event.types.js';
import { FeedStart } from './feed-start.js';

/** What the feeds listen to: every numbered event, in stream order, once (the EventHub). */
export interface EventSource {
  subscribe(listener: (events: readonly LedgerEventView[]) => void): () => void;
  /** The stream position after which a subscription starting now receives events (committed events numbered first). */
  startingPoint(): Promise<bigint>;
}

export interface WatchOptions {
  /** Called once if the subscriber falls `capacity` events behind (the transport closes its connection). */
  onOverflow?: () => void;
  /** Where the subscription starts: `startNow()` when its message arrived (the transport's); taken at the call when absent. */
  start?: FeedStart;
}

const TypesRule = z.array(z.enum(EVENT_TYPES as unknown as [EventType, ...EventType[]])).min(1).max(EVENT_TYPES.length * 4);

/** Events a start may hold while its feed opens (all projects' events, as shared references): a burst of 10,000 expiries fits. */
const START_CAPACITY = 20_000;

/**
 * Live events for subscribers on this instance (CONTRACT §16): a wallet's changes, or a
 * project's events of some types. Access is checked once, when the feed opens, exactly as a read
 * (another owner's wallet or project is not_found); then the hub's events are routed by wallet and
 * by project through two indexes, so dispatching costs what the matching feeds cost, not what all
 * feeds cost. Each feed is bounded (EventFeed): the hub's callback never waits for a subscriber.
 */
export class EventFeedService {
  private readonly byWallet = new Map<string, Set<EventFeed>>();
  private readonly byProject = new Map<number, Map<EventFeed, ReadonlySet<EventType> | null>>();
  private unsubscribe: (() => void) | null = null;
  private opened = 0;
  /** Each open feed's starting point (EventSource.startingPoint): the events it receives are numbered after it. */
  private readonly startsAfter = new Map<EventFeed, bigint>();
  private readonly sizeWatchers = new Set<() => void>();
  /** Starts whose feed is not open yet: they hold what the hub delivers meanwhile. */
  private readonly starts = new Set<FeedStart>();

  constructor(
    private readonly hub: EventSource,
    private readonly wallets: WalletService,
    private readonly projects: ProjectService,
    /** Events that may wait unread per subscription before it is dropped (LEDGER_SUBSCRIPTION_BUFFER; src/config.ts). */
    private readonly capacity: number,
  ) {}

  /** Ends every feed (their consumers see the end) and stops listening. */
  stop(): void {
    for (const start of [...this.starts]) start.release();
    this.stopListening();
    for (const feeds of this.byWallet.values()) for (const feed of [...feeds]) feed.end();
    for (const feeds of this.byProject.values()) for (const feed of [...feeds.keys()]) feed.end();
  }

  /**
   * A subscription's starting point, fixed now: call it when the subscribe message arrives, before
   * any asynchronous work. It listens to the hub before its position is computed, so the hub cannot
   * move past an event it needs (see FeedStart).
   */
  startNow(): FeedStart {
    this.listen();
    const start = new FeedStart(this.hub.startingPoint(), Math.max(this.capacity, START_CAPACITY), (done) => {
      this.starts.delete(done);
      this.stopListeningIfIdle();
    });
    this.starts.add(start);
    return start;
  }

  /**
   * The events that change this wallet (its balances, holds or status) after the starting point;
   * with the wallet as it is then. The wallet is read once the starting point is fixed, so it
   * already shows every change the feed will not send.
   */
  async watchWallet(principal: Principal, walletId: string, options: WatchOptions = {}): Promise<{ wallet: WalletView; feed: EventFeed }> {
    const start = options.start ?? this.startNow();
    try {
      const after = await start.after;
      const wallet = await this.wallets.get(principal, walletId);
      const feed = this.open(start, after, options, {
        matches: (event) => event.walletIds.includes(wallet.id),
        attach: (opened) => add(this.byWallet, wallet.id, opened),
        detach: (closed) => remove(this.byWallet, wallet.id, closed),
      });
      return { wallet, feed };
    } finally {
      start.release();
    }
  }

  /** The project's events, of the given types (all when null), after the starting point, in `seq` order. */
  async watchProject(principal: Principal, projectId: number, types: readonly string[] | null, options: WatchOptions = {}): Promise<EventFeed> {
    const start = options.start ?? this.startNow();
    try {
      const wanted = types === null ? null : new Set(parseInput(TypesRule, types, 'types', { nested: true }));
      const project = await this.projects.get(principal, projectId);
      const after = await start.after;
      return this.open(start, after, options, {
        matches: (event) => event.projectId === project.id && (!wanted || wanted.has(event.type)),
        attach: (opened) => {
          let feeds = this.byProject.get(project.id);
          if (!feeds) this.byProject.set(project.id, (feeds = new Map()));
          feeds.set(opened, wanted);
        },
        detach: (closed) => {
          const feeds = this.byProject.get(project.id);
          feeds?.delete(closed);
          if (feeds?.size === 0) this.byProject.delete(project.id);
        },
      });
    } finally {
      start.release();
    }
  }

  /** Open feeds on this instance. */
  get size(): number {
    return this.opened;
  }

  /** Resolves once `holds(size)` is true: tests and tools await a subscription being in place instead of sleeping. */
  whenSize(holds: (size: number) => boolean): Promise<void> {
    if (holds(this.opened)) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!holds(this.opened)) return;
        this.sizeWatchers.delete(check);
        resolve();
      };
      this.sizeWatchers.add(check);
    });
  }

  private sizeChanged(): void {
    for (const check of [...this.sizeWatchers]) check();
  }

  /**
   * Opens a feed in one turn: indexed, then given the events its start held after `after`, so the
   * live events the hub hands over next come after them.
   */
  private open(start: FeedStart, after: bigint, options: WatchOptions, route: { matches(event: LedgerEventView): boolean; attach(feed: EventFeed): void; detach(feed: EventFeed): void }): EventFeed {
    this.opened += 1;
    this.listen();
    queueMicrotask(() => this.sizeChanged());
    const feed = new EventFeed(this.capacity, () => {
      this.opened -= 1;
      this.startsAfter.delete(feed);
      route.detach(feed);
      this.stopListeningIfIdle();
      this.sizeChanged();
    }, options.onOverflow);
    this.startsAfter.set(feed, after);
    route.attach(feed);
    const held = start.take(after);
    if (held === null) feed.overflow();
    else for (const event of held) if (route.matches(event)) feed.offer(event);
    return feed;
  }

  /** Offers the event unless it was committed before the feed's subscription started. */
  private offer(feed: EventFeed, event: LedgerEventView): void {
    if (BigInt(event.streamPos) > (this.startsAfter.get(feed) ?? -1n)) feed.offer(event);
  }

  /** The hub is followed only while a feed is open or starting: with no listener it renders nothing. */
  private listen(): void {
    this.unsubscribe ??= this.hub.subscribe((events) => this.dispatch(events));
  }

  private stopListeningIfIdle(): void {
    if (this.opened > 0 || this.starts.size > 0) return;
    this.stopListening();
  }

  private stopListening(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private dispatch(events: readonly LedgerEventView[]): void {
    for (const start of this.starts) start.hold(events);
    for (const event of events) {
      for (const walletId of event.walletIds) {
        const feeds = this.byWallet.get(walletId);
        if (feeds) for (const feed of feeds) this.offer(feed, event);
      }
      const feeds = this.byProject.get(event.projectId);
      if (feeds) for (const [feed, wanted] of feeds) if (!wanted || wanted.has(event.type)) this.offer(feed, event);
    }
  }
}

function add<K>(index: Map<K, Set<EventFeed>>, key: K, feed: EventFeed): void {
  let feeds = index.get(key);
  if (!feeds) index.set(key, (feeds = new Set()));
  feeds.add(feed);
}

function remove<K>(index: Map<K, Set<EventFeed>>, key: K, feed: EventFeed): void {
  const feeds = index.get(key);
  feeds?.delete(feed);
  if (feeds?.size === 0) index.delete(key);
}
