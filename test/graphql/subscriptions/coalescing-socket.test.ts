import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { CoalescingWebSocket, HIGH_WATER_BYTES } from '../../../src/graphql/subscriptions/coalescing-socket.js';

/**
 * The subscription server's WebSocket (src/graphql/subscriptions/coalescing-socket.ts), over real
 * TCP: a turn's sends leave in one write, and a send is acknowledged at once only while the
 * socket's buffers are below the high-water mark.
 */
describe('CoalescingWebSocket', () => {
  let http: Server;
  let wss: WebSocketServer;
  let server: CoalescingWebSocket;
  let raw: Socket;
  let client: WebSocket;

  beforeEach(async () => {
    http = createServer();
    wss = new WebSocketServer({ noServer: true, WebSocket: CoalescingWebSocket });
    const connected = new Promise<void>((resolve) => {
      http.on('upgrade', (req, socket, head) =>
        wss.handleUpgrade(req, socket, head, (ws) => {
          (ws as CoalescingWebSocket).writesTo(socket);
          server = ws as CoalescingWebSocket;
          raw = socket as Socket;
          resolve();
        }),
      );
    });
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    client = new WebSocket(`ws://127.0.0.1:${(http.address() as AddressInfo).port}`);
    await Promise.all([once(client, 'open'), connected]);
  });

  afterEach(async () => {
    client.terminate();
    server?.terminate();
    wss.close();
    http.close();
  });

  /** Counts the writes the TCP socket makes (each one a system call), without changing them. */
  function countWrites(socket: Socket): () => number {
    let writes = 0;
    const target = socket as unknown as { _write: (...a: unknown[]) => unknown; _writev: (...a: unknown[]) => unknown };
    const write = target._write.bind(socket);
    const writev = target._writev.bind(socket);
    target._write = (...a) => ((writes += 1), write(...a));
    target._writev = (...a) => ((writes += 1), writev(...a));
    return () => writes;
  }

  it('sends the messages of one turn in one write, in order', async () => {
    const writes = countWrites(raw);
    const received: string[] = [];
    const all = new Promise<void>((resolve) => client.on('message', (data) => received.push(String(data)) === 100 && resolve()));
    for (let i = 0; i < 100; i++) server.send(`message ${i}`);
    await all;
    expect(received).toEqual(Array.from({ length: 100 }, (_, i) => `message ${i}`));
    expect(writes()).toBe(1);
  });

  it('acknowledges sends at once below the high-water mark, and only once written above it', async () => {
    (client as unknown as { _socket: Socket })._socket.pause(); // the subscriber reads nothing more
    const message = 'x'.repeat(64 * 1024);
    let sent = 0;
    let acknowledged = 0;
    let target = Infinity;
    let allAcknowledged!: () => void;
    const done = new Promise<void>((resolve) => (allAcknowledged = resolve));
    const send = () => {
      sent += 1;
      server.send(message, () => ++acknowledged === target && allAcknowledged());
    };
    // Below the mark every send is acknowledged at once, written or not: fill the kernel's buffers
    // (loopback takes megabytes) until ws holds the mark's worth itself.
    while (server.bufferedAmount < HIGH_WATER_BYTES && sent < 2_000) {
      send();
      await new Promise((resolve) => setImmediate(resolve)); // a turn: the corked write leaves
      expect(acknowledged).toBe(sent);
    }
    expect(server.bufferedAmount).toBeGreaterThanOrEqual(HIGH_WATER_BYTES);
    // Above it, a send waits for its write, which waits for the subscriber.
    const before = acknowledged;
    for (let i = 0; i < 5; i++) send();
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(acknowledged).toBe(before);
    target = sent;
    (client as unknown as { _socket: Socket })._socket.resume();
    await done;
    expect(acknowledged).toBe(sent);
  });
});
