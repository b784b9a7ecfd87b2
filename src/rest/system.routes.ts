import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { HealthBody, PlanBody } from './schemas.js';

/** CONTRACT §18: `/readyz` answers within 1 s; the probe's own share of it. */
const READY_WITHIN_MS = 900;

export function systemRoutes(services: Services): Route[] {
  return [
    route({
      method: 'GET',
      path: '/healthz',
      auth: 'none',
      doc: { operationId: 'getHealth', summary: 'Process is up', tag: 'health', response: { status: 200, schema: HealthBody }, errors: [] },
      handler: async () => ({ status: 200, body: { status: 'ok' } }),
    }),
    route({
      method: 'GET',
      path: '/readyz',
      auth: 'none',
      doc: { operationId: 'getReadiness', summary: 'Database is reachable (503 when not)', tag: 'health', response: { status: 200, schema: HealthBody }, errors: [] },
      handler: async () => {
        // a request connection, as requests get them: a pool that gives none within 1 s is not ready either (CONTRACT §18)
        if (await services.db.reachable(READY_WITHIN_MS)) return { status: 200, body: { status: 'ready' } };
        return { status: 503, body: { code: 'internal_error', message: 'database unreachable, or no database connection free', details: {} } };
      },
    }),
    route({
      method: 'GET',
      path: '/user/plan',
      auth: 'api_key',
      doc: { operationId: 'getPlan', summary: "The caller's plan and quotas", tag: 'plan', response: { status: 200, schema: PlanBody }, errors: [] },
      handler: async ({ principal }) => ({ status: 200, body: await services.plans.userPlan(principal) }),
    }),
  ];
}
