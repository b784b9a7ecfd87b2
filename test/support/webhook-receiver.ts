import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  /** Its place among every request this receiver got, from 0. */
  index: number;
}

/** What the receiver answers: a status, or `hang` (no answer at all). */
export type Answer = number | 'hang';

/**
 * A real HTTP server that records every webhook POSTed to it and answers what `answer` says.
 * Tests await requests (`waitFor`) instead of sleeping.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  answer: (request: ReceivedWebhook) => Answer = () => 200;
  private readonly waiters = new Set<() => void>();
  private server!: Server;
  url = '';

  static async start(answer?: (request: ReceivedWebhook) => Answer): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    if (answer) receiver.answer = answer;
    receiver.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), index: receiver.received.length };
        receiver.received.push(request);
        const answer = receiver.answer(request);
        if (answer !== 'hang') res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
        for (const wake of receiver.waiters) wake();
      });
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hooks`;
    return receiver;
  }

  /** Resolves once `condition` holds for the requests received (checked at once, then at each request). */
  waitFor(condition: (received: ReceivedWebhook[]) => boolean, what = 'webhooks', timeoutMs = 20_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!condition(this.received)) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}; received ${this.received.length}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  /** The requests that carried one event (`webhook-id`). */
  of(eventId: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.headers['webhook-id'] === eventId);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
