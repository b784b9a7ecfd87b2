import { z } from 'zod';
import { ThresholdRule } from '../domain/monitors/monitor.rules.js';
import { MONITOR_FIELDS, MONITOR_OPERATORS } from '../domain/monitors/monitor.types.js';
import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { pagination, PaginationBody } from '../json/page.json.js';
import { BalanceMonitorBody, balanceMonitorJson } from '../json/balance-monitor.json.js';
import { PageQuery, ProjectId, ProjectIdQuery, Symbol, Uuid, WalletRef } from './schemas.js';

const CreateMonitorBody = z.strictObject({
  projectId: ProjectId,
  currency: Symbol,
  field: z.enum(MONITOR_FIELDS).meta({ description: '`balance` (posted) or `available` (balance − held)' }),
  operator: z.enum(MONITOR_OPERATORS),
  value: ThresholdRule.meta({ description: "Major units, ≥ 0, at most the currency's decimals" }),
  walletId: WalletRef.optional().meta({ description: 'A wallet id or address of the project; absent: every customer wallet of the project' }),
});
const MonitorIdParams = z.strictObject({ id: Uuid });
const MonitorListQuery = z.strictObject({
  projectId: ProjectIdQuery,
  walletId: WalletRef.optional().meta({ description: "A wallet id or address: only that wallet's own monitors" }),
  ...PageQuery,
});

/** Balance monitors (CONTRACT §20). */
export function balanceMonitorRoutes({ balanceMonitors }: Services): Route[] {
  return [
    route({
      method: 'POST',
      path: '/balance-monitors',
      auth: 'api_key',
      body: CreateMonitorBody,
      doc: {
        operationId: 'createBalanceMonitor',
        summary:
          'Watch a wallet (or every customer wallet) for its balance or available funds crossing a threshold: each committed change that makes `field operator value` true writes one `balance.threshold_crossed` event. At most 100 per project (403 quota_exceeded)',
        tag: 'monitors',
        response: { status: 201, schema: z.object({ monitor: BalanceMonitorBody }) },
        // 403 quota_exceeded: the project has its 100 monitors (details {quota: "balance_monitors", limit: 100})
        errors: ['validation_error', 'quota_exceeded', 'not_found'],
      },
      handler: async ({ principal, body }) => ({ status: 201, body: { monitor: balanceMonitorJson(await balanceMonitors.create(principal, body)) } }),
    }),
    route({
      method: 'GET',
      path: '/balance-monitors',
      auth: 'api_key',
      query: MonitorListQuery,
      doc: {
        operationId: 'listBalanceMonitors',
        summary: "A project's balance monitors, oldest first (with walletId: that wallet's own)",
        tag: 'monitors',
        response: { status: 200, schema: z.object({ monitors: z.array(BalanceMonitorBody), pagination: PaginationBody }) },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, query }) => {
        const page = await balanceMonitors.list(principal, query);
        return { status: 200, body: { monitors: page.items.map(balanceMonitorJson), pagination: pagination(query.page, query.limit, page.total) } };
      },
    }),
    route({
      method: 'DELETE',
      path: '/balance-monitors/{id}',
      auth: 'api_key',
      params: MonitorIdParams,
      doc: {
        operationId: 'deleteBalanceMonitor',
        summary: 'Delete a balance monitor: it crosses no more (events already written stay)',
        tag: 'monitors',
        response: { status: 200, schema: z.object({ id: z.string(), deleted: z.literal(true) }) },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, params }) => ({ status: 200, body: await balanceMonitors.delete(principal, params.id) }),
    }),
  ];
}
