import http from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import type { UrlGuard } from './url-guard.js';

/** node:https on the first https webhook, not at start-up: it loads node:tls, ≈ 30 ms of CPU. */
const https = () => process.getBuiltinModule('node:https');

/** What one POST came to: a 2xx answer is a success; anything else (another status, no answer) a failure. */
export interface SendResult {
  ok: boolean;
  responseStatus: number | null;
  error: string | null;
  /** The send was cut short by `signal` (shutdown): no attempt to record, the job is released. */
  aborted?: boolean;
}

const MAX_ERROR_LENGTH = 500;

/**
 * POSTs webhook bodies. Connections go through the UrlGuard's `lookup`, so each one reaches only
 * addresses checked at that moment; redirects are not followed (a 3xx is a failed attempt).
 * Kept-alive connections are reused per host, as a receiver would expect of a steady sender.
 * No bound of sockets per host: the delivery worker bounds the requests in flight (its lanes),
 * and a bound here would queue one owner's request behind another's that hang on a shared host.
 */
export class WebhookSender {
  private readonly httpAgent = new http.Agent({ keepAlive: true });
  private httpsAgent?: HttpsAgent;

  constructor(
    private readonly guard: UrlGuard,
    private readonly timeoutMs: number,
  ) {}

  send(url: string, headers: Record<string, string>, body: string, signal?: AbortSignal): Promise<SendResult> {
    return new Promise((resolve) => {
      const fail = (error: string, responseStatus: number | null = null) => resolve({ ok: false, responseStatus, error: error.slice(0, MAX_ERROR_LENGTH) });
      let target: URL;
      try {
        target = new URL(url);
        this.guard.checkTarget(target);
      } catch (error) {
        return fail((error as Error).message);
      }
      const secure = target.protocol === 'https:';
      const request = (secure ? https() : http).request(target, {
        method: 'POST',
        agent: secure ? (this.httpsAgent ??= new (https().Agent)({ keepAlive: true })) : this.httpAgent,
        lookup: this.guard.lookup,
        signal,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'ledger-webhooks/1' },
      });
      const timer = setTimeout(() => request.destroy(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      request.on('response', (response) => {
        clearTimeout(timer);
        // the answer's body is not needed; reading it lets the connection be reused, and one that never ends is cut
        const drain = setTimeout(() => response.destroy(), this.timeoutMs);
        response.on('close', () => clearTimeout(drain));
        response.resume();
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve({ ok: true, responseStatus: status, error: null });
        else fail(`receiver answered ${status}`, status);
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        if (signal?.aborted) return resolve({ ok: false, responseStatus: null, error: 'aborted at shutdown', aborted: true });
        fail(error.message || error.code || 'request failed');
      });
      request.end(body);
    });
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent?.destroy();
  }
}
