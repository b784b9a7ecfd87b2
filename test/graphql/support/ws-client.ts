import WebSocket from 'ws';

export interface Closed {
  code: number;
  reason: string;
}

/** A graphql-transport-ws message as the server sends it. */
export interface ServerMessage {
  type: 'connection_ack' | 'next' | 'error' | 'complete' | 'ping' | 'pong';
  id?: string;
  payload?: any;
}

/**
 * A bare graphql-transport-ws client over a real WebSocket: every message the server sends is
 * kept in order, so a test reads exactly what went over the wire (close codes included).
 */
export class WsClient {
  readonly closed: Promise<Closed>;
  private readonly received: ServerMessage[] = [];
  private readonly waiters: (() => void)[] = [];
  private closedWith: Closed | null = null;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as ServerMessage;
      if (message.type === 'ping') return socket.send(JSON.stringify({ type: 'pong' }));
      this.received.push(message);
      this.wake();
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => {
        this.closedWith = { code, reason: String(reason) };
        resolve(this.closedWith);
        this.wake();
      }),
    );
  }

  /** Opens `url` (ws://…/graphql) with the graphql-transport-ws protocol; sends connection_init with `payload` unless it is undefined. */
  static async open(url: string, payload?: unknown, headers?: Record<string, string>, protocol = 'graphql-transport-ws'): Promise<WsClient> {
    const socket = new WebSocket(url, protocol, { headers });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const client = new WsClient(socket);
    if (payload !== undefined) client.send({ type: 'connection_init', payload });
    return client;
  }

  /** Opens, authenticates with `apiKey` and waits for connection_ack. */
  static async connect(url: string, apiKey: string): Promise<WsClient> {
    const client = await WsClient.open(url, { api_key: apiKey });
    const ack = await client.next();
    if (ack.type !== 'connection_ack') throw new Error(`expected connection_ack, got ${JSON.stringify(ack)}`);
    return client;
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  subscribe(id: string, query: string, variables: Record<string, unknown> = {}): void {
    this.send({ id, type: 'subscribe', payload: { query, variables } });
  }

  complete(id: string): void {
    this.send({ id, type: 'complete' });
  }

  /** The next message the server sent (waits for it); rejects when the socket closes first or after `timeoutMs`. */
  next(timeoutMs = 5_000): Promise<ServerMessage> {
    return this.nextWhere(() => true, timeoutMs);
  }

  /** The next message about subscription `id`, leaving the others' messages in place. */
  nextFor(id: string, timeoutMs = 5_000): Promise<ServerMessage> {
    return this.nextWhere((message) => message.id === id, timeoutMs);
  }

  /** The payloads of the next `count` `next` messages of subscription `id` (an error or complete for it fails). */
  async take(id: string, count: number, timeoutMs = 5_000): Promise<any[]> {
    const payloads = [];
    while (payloads.length < count) {
      const message = await this.nextFor(id, timeoutMs);
      if (message.type !== 'next') throw new Error(`expected next for ${id}, got ${JSON.stringify(message)}`);
      payloads.push(message.payload);
    }
    return payloads;
  }

  private async nextWhere(wanted: (message: ServerMessage) => boolean, timeoutMs: number): Promise<ServerMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.received.findIndex(wanted);
      if (index >= 0) return this.received.splice(index, 1)[0];
      if (this.closedWith) throw new Error(`socket closed (${this.closedWith.code} ${this.closedWith.reason}) before the message arrived`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no message within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Messages received and not read yet. */
  get pending(): number {
    return this.received.length;
  }

  close(): Promise<Closed> {
    if (!this.closedWith) this.socket.close(1000);
    return this.closed;
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}

export const wsUrl = (baseUrl: string): string => `${baseUrl.replace(/^http/, 'ws')}/graphql`;
