import pg from 'pg';
import type { Logger } from '../logger.js';

type Handler = (payload: string) => void;

const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/**
 * PostgreSQL LISTEN/NOTIFY on one dedicated connection per instance: what one instance changes
 * (a plan, a revoked key, a posted event) reaches every instance's listeners within milliseconds
 * of the commit (NOTIFY is delivered at commit, never for a rolled-back transaction).
 *
 * A dropped connection is re-opened with backoff and every channel listened to again; since
 * notifications sent meanwhile are lost, `onReconnect` handlers run after each re-connection so
 * that whoever depends on them can resynchronise (flush a cache, re-read from a sequence number).
 */
export class NotificationChannel {
  private client: pg.Client | null = null;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly reconnectHandlers = new Set<() => void>();
  private connecting: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryDelay = RECONNECT_MIN_MS;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
  ) {}

  /**
   * Opens the listening connection; resolves once it listens to every subscribed channel. On a
   * started channel: the opening under way, or at once when open (each subscribe() since has
   * listened to its channel before resolving). Never a second connection.
   */
  start(): Promise<void> {
    this.stopped = false;
    if (this.client) return Promise.resolve();
    return this.connect(false);
  }

  /** Calls `handler` with each payload sent on `channel` by any instance; returns the unsubscribe. */
  async subscribe(channel: string, handler: Handler): Promise<() => void> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await this.client?.query(`LISTEN ${quoteIdent(channel)}`).catch((err: unknown) => this.logger.warn({ err, channel }, 'LISTEN failed; retried on reconnect'));
    }
    set.add(handler);
    return () => {
      set.delete(handler);
      if (set.size === 0 && this.handlers.get(channel) === set) {
        this.handlers.delete(channel);
        void this.client?.query(`UNLISTEN ${quoteIdent(channel)}`).catch(() => undefined);
      }
    };
  }

  /** Runs after each re-connection (not the first connection): notifications may have been missed. */
  onReconnect(handler: () => void): () => void {
    this.reconnectHandlers.add(handler);
    return () => this.reconnectHandlers.delete(handler);
  }

  /** The listening connection's backend pid (tests terminate it to prove the reconnection). */
  backendPid(): number | undefined {
    return (this.client as unknown as { processID?: number } | null)?.processID;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private connect(isReconnect: boolean): Promise<void> {
    this.connecting ??= this.open(isReconnect).finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async open(isReconnect: boolean): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: 'ledger-notifications' });
    client.on('notification', (message) => this.dispatch(message.channel, message.payload ?? ''));
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    await client.connect();
    // every channel in one round trip; a channel subscribed meanwhile (this.client is not set yet,
    // so subscribe() only records it) in the next, until none is new
    const listened = new Set<string>();
    for (let fresh = [...this.handlers.keys()]; fresh.length > 0; fresh = [...this.handlers.keys()].filter((channel) => !listened.has(channel))) {
      await client.query(fresh.map((channel) => `LISTEN ${quoteIdent(channel)}`).join('; '));
      for (const channel of fresh) listened.add(channel);
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryDelay = RECONNECT_MIN_MS;
    if (isReconnect) {
      this.logger.info('notification listener reconnected');
      for (const handler of this.reconnectHandlers) handler();
    }
  }

  private dispatch(channel: string, payload: string): void {
    for (const handler of this.handlers.get(channel) ?? []) {
      try {
        handler(payload);
      } catch (err) {
        this.logger.error({ err, channel }, 'notification handler failed');
      }
    }
  }

  private lost(client: pg.Client, err?: unknown): void {
    if (this.client !== client || this.stopped) return;
    this.client = null;
    this.logger.warn({ err }, 'notification listener connection lost; reconnecting');
    void client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect(true).catch((err: unknown) => {
        this.logger.warn({ err }, 'notification listener reconnect failed');
        this.retryDelay = Math.min(this.retryDelay * 2, RECONNECT_MAX_MS);
        this.scheduleReconnect();
      });
    }, this.retryDelay);
    this.retryTimer.unref();
  }
}

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Sends `payload` on `channel` when the surrounding transaction commits (or at once outside one). */
export const NOTIFY_SQL = `SELECT pg_notify($1, $2)`;
