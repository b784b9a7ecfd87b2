import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { HealthBody, PlanBody } from './schemas.js';

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
        try {
          await services.db.query('SELECT 1');
          return { status: 200, body: { status: 'ready' } };
        } catch {
          return { status: 503, body: { code: 'internal_error', message: 'database unreachable', details: {} } };
        }
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
