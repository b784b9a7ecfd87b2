import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AttemptReport } from '../../src/domain/webhook-endpoints/delivery-worker.js';
import type { TestApp } from './test-app.js';

/** A list that grows as things happen; tests await a condition on it instead of sleeping. */
export class Observed<T> {
  readonly items: T[] = [];
  private readonly waiters = new Set<() => void>();

  push(item: T): void {
    this.items.push(item);
    for (const wake of this.waiters) wake();
  }

  /** Resolves once `condition` holds (checked at once, then at each new item). */
  waitFor(condition: (items: T[]) => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!condition(this.items)) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}; have ${this.items.length}: ${JSON.stringify(this.items).slice(0, 2000)}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }
}

export interface ReceivedWebhook {
  /** The request's path (one receiver serves several endpoints by path). */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When it arrived (Date.now()). */
  at: number;
}

/** What the receiver answers a request: a status, `hang` (no answer at all), or a status later (once the promise settles). */
export type Answer = number | 'hang' | Promise<number>;

/** A real HTTP server that records every webhook POSTed to it and answers what `answer` says. */
export class WebhookReceiver extends Observed<ReceivedWebhook> {
  answer: (request: ReceivedWebhook, sameId: number) => Answer = () => 200;
  /** Requests open right now, by path (from the request's arrival until its connection's end or the answer). */
  readonly open = new Map<string, number>();
  /** The most requests ever open at once, by path. */
  readonly mostOpen = new Map<string, number>();
  private server!: Server;
  /** `http://127.0.0.1:port`: endpoints at other paths of the same receiver. */
  origin = '';
  url = '';

  /** `answer` gets the request and how many earlier requests carried its webhook-id. */
  static async start(answer?: (request: ReceivedWebhook, sameId: number) => Answer): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    if (answer) receiver.answer = answer;
    receiver.server = createServer((req, res) => {
      const path = req.url ?? '/';
      const open = (receiver.open.get(path) ?? 0) + 1;
      receiver.open.set(path, open);
      receiver.mostOpen.set(path, Math.max(open, receiver.mostOpen.get(path) ?? 0));
      res.on('close', () => receiver.open.set(path, (receiver.open.get(path) ?? 1) - 1));
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request = { path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
        const answer = receiver.answer(request, receiver.of(String(req.headers['webhook-id'])).length);
        const reply = (status: number) => res.writeHead(status, { 'content-type': 'text/plain' }).end('thanks');
        if (answer instanceof Promise) void answer.then(reply);
        else if (answer !== 'hang') reply(answer);
        receiver.push(request);
      });
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.origin = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    receiver.url = `${receiver.origin}/hooks`;
    return receiver;
  }

  /** The requests that carried one event (`webhook-id`). */
  of(eventId: string): ReceivedWebhook[] {
    return this.items.filter((r) => r.headers['webhook-id'] === eventId);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Every attempt an app's delivery worker records from now on. */
export function attemptsOf(t: TestApp): Observed<AttemptReport> {
  const observed = new Observed<AttemptReport>();
  t.app.services.webhookDeliveries.onAttempt((report) => observed.push(report));
  return observed;
}
