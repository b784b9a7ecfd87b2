import type { IncomingMessage, ServerResponse } from 'node:http';

const ALLOWED_HEADERS = 'api_key, content-type, idempotency-key, x-request-id, apollo-require-preflight';
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE';

/**
 * CORS per CONTRACT §17: `LEDGER_CORS_ORIGINS` lists the origins a browser app may call from
 * (or `*`). Unset: no CORS headers at all. A preflight is answered before authentication, since
 * browsers never send credentials (our `api_key` header) on it.
 */
export class Cors {
  private readonly any: boolean;
  private readonly origins: Set<string>;

  constructor(setting: string | undefined) {
    const list = (setting ?? '').split(',').map((o) => o.trim()).filter(Boolean);
    this.any = list.includes('*');
    this.origins = new Set(list);
  }

  get enabled(): boolean {
    return this.any || this.origins.size > 0;
  }

  /** The `access-control-allow-origin` value for this request, or undefined when not allowed. */
  allowedOrigin(req: IncomingMessage): string | undefined {
    const origin = req.headers.origin;
    if (!origin || !this.enabled) return undefined;
    if (this.any) return '*';
    return this.origins.has(origin) ? origin : undefined;
  }

  /** Answers a preflight from an allowed origin (204) and says whether it did. */
  answerPreflight(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'OPTIONS' || !req.headers['access-control-request-method']) return false;
    const origin = this.allowedOrigin(req);
    if (!origin) return false;
    res.writeHead(204, {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': ALLOWED_METHODS,
      'access-control-allow-headers': ALLOWED_HEADERS,
      'access-control-max-age': '600',
      vary: 'Origin',
      'content-length': 0,
    });
    res.end();
    return true;
  }

  /** Headers every answer to an allowed origin carries. */
  responseHeaders(req: IncomingMessage): Record<string, string> {
    const origin = this.allowedOrigin(req);
    if (!origin) return {};
    return { 'access-control-allow-origin': origin, 'access-control-expose-headers': 'x-request-id, retry-after, idempotent-replayed', vary: 'Origin' };
  }
}
