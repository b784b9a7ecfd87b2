import { z } from 'zod';
import type { Principal } from '../auth/api-key.service.js';
import type { ProjectService } from '../projects/project.service.js';
import { parseInput } from '../shared/validation.js';
import type { WalletService } from '../wallets/wallet.service.js';
import type { WalletView } from '../wallets/wallet.types.js';
import { EventFeed } from './event-feed.js';
import { EVENT_TYPES, type EventType, type LedgerEventView } from './event.types.js';

/** What the feeds listen to: every numbered event, in stream order, once (the EventHub). */
export interface EventSource {
  subscribe(listener: (events: readonly LedgerEventView[]) => void): () => void;
  /** The stream position after which a subscription starting now receives events (committed events numbered first). */
  startingPoint(): Promise<bigint>;
}

export interface WatchOptions {
  /** Called once if the subscriber falls `capacity` events behind (the transport closes its connection). */
  onOverflow?: () => void;
}

const TypesRule = z.array(z.enum(EVENT_TYPES as unknown as [EventType, ...EventType[]])).min(1).max(EVENT_TYPES.length * 4);

/**
 * How many events may wait unread per subscription before it is dropped (LEDGER_SUBSCRIPTION_BUFFER).
 * The hub hands over up to 500 events at once, all offered before any consumer can read, so the
 * capacity must exceed a burst. A queue holds references to events every feed shares: a full one
 * costs 8 KiB of pointers, plus the events nobody else still holds.
 */
export const DEFAULT_FEED_CAPACITY = 1024;

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

  constructor(
    private readonly hub: EventSource,
    private readonly wallets: WalletService,
    private readonly projects: ProjectService,
    private readonly capacity: number = DEFAULT_FEED_CAPACITY,
  ) {}

  /** Ends every feed (their consumers see the end) and stops listening. */
  stop(): void {
    this.stopListening();
    for (const feeds of this.byWallet.values()) for (const feed of [...feeds]) feed.end();
    for (const feeds of this.byProject.values()) for (const feed of [...feeds.keys()]) feed.end();
  }

  /** The events that change this wallet (its balances, holds or status), from now on; with the wallet as it is now. */
  async watchWallet(principal: Principal, walletId: string, options: WatchOptions = {}): Promise<{ wallet: WalletView; feed: EventFeed }> {
    const wallet = await this.wallets.get(principal, walletId);
    const feed = this.open(await this.hub.startingPoint(), options, () => remove(this.byWallet, wallet.id, feed));
    add(this.byWallet, wallet.id, feed);
    return { wallet, feed };
  }

  /** The project's events, of the given types (all when null), from now on, in `seq` order. */
  async watchProject(principal: Principal, projectId: number, types: readonly string[] | null, options: WatchOptions = {}): Promise<EventFeed> {
    const wanted = types === null ? null : new Set(parseInput(TypesRule, types, 'types', { nested: true }));
    const project = await this.projects.get(principal, projectId);
    const feed = this.open(await this.hub.startingPoint(), options, () => {
      const feeds = this.byProject.get(project.id);
      feeds?.delete(feed);
      if (feeds?.size === 0) this.byProject.delete(project.id);
    });
    let feeds = this.byProject.get(project.id);
    if (!feeds) this.byProject.set(project.id, (feeds = new Map()));
    feeds.set(feed, wanted);
    return feed;
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

  /** The hub is followed only while a feed is open: with no listener it renders nothing. */
  private open(startsAfter: bigint, options: WatchOptions, detach: () => void): EventFeed {
    this.opened += 1;
    this.unsubscribe ??= this.hub.subscribe((events) => this.dispatch(events));
    queueMicrotask(() => this.sizeChanged()); // once the caller has indexed the feed
    const feed = new EventFeed(this.capacity, () => {
      this.opened -= 1;
      this.startsAfter.delete(feed);
      detach();
      if (this.opened === 0) this.stopListening();
      this.sizeChanged();
    }, options.onOverflow);
    this.startsAfter.set(feed, startsAfter);
    return feed;
  }

  /** Offers the event unless it was committed before the feed's subscription started. */
  private offer(feed: EventFeed, event: LedgerEventView): void {
    if (BigInt(event.streamPos) > (this.startsAfter.get(feed) ?? -1n)) feed.offer(event);
  }

  private stopListening(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private dispatch(events: readonly LedgerEventView[]): void {
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
