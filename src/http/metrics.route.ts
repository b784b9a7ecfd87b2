import { secretMatches } from '../domain/auth/secret-match.js';
import { LedgerError } from '../domain/errors.js';
import { route, type Route } from './route.js';
import type { Metrics } from '../observability/metrics.js';

/** GET /metrics: Prometheus text, no api_key; with a token set, `Authorization: Bearer <token>` (CONTRACT §17). */
export function metricsRoute(metrics: Metrics, token: string | undefined): Route {
  return route({
    method: 'GET',
    path: '/metrics',
    auth: 'none',
    handler: async ({ req }) => {
      if (token !== undefined && !secretMatches(`Bearer ${token}`, req.headers.authorization)) {
        throw new LedgerError('unauthorized', 'missing or wrong Authorization: Bearer token for /metrics');
      }
      // `json` carries a body sent as is; here it is Prometheus text, with its own content type
      return { status: 200, body: undefined, json: await metrics.text(), headers: { 'content-type': metrics.contentType } };
    },
  });
}

