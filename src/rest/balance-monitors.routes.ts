import { z } from 'zod';
import { ThresholdRule } from '../domain/monitors/monitor.rules.js';
import { MONITOR_FIELDS, MONITOR_OPERATORS, type BalanceMonitorView, type CrossingView } from '../domain/monitors/monitor.types.js';
import { toMajor } from '../domain/money.js';
import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { pagination } from './presenters.js';
import { PageQuery, PaginationBody, ProjectId, ProjectIdQuery, Symbol, Uuid, WalletRef } from './schemas.js';

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

export const BalanceMonitorBody = z
  .object({
    id: z.string(),
    projectId: z.number().int(),
    walletId: z.string().nullable().meta({ description: 'null: every customer wallet of the project' }),
    currency: z.string(),
    field: z.enum(MONITOR_FIELDS),
    operator: z.enum(MONITOR_OPERATORS),
    value: z.number(),
    created_at: z.string(),
  })
  .meta({ id: 'BalanceMonitor' });

/** The data of a `balance.threshold_crossed` event (CONTRACT §20). */
export const CrossingBody = z
  .object({
    monitorId: z.string(),
    walletId: z.string(),
    address: z.string(),
    currency: z.string(),
    field: z.enum(MONITOR_FIELDS),
    operator: z.enum(MONITOR_OPERATORS),
    value: z.number(),
    previous: z.number().meta({ description: "The field's value just before the change" }),
    current: z.number().meta({ description: "The field's value just after the change" }),
    transactionId: z.string().nullable().meta({ description: 'The posting that crossed, or null' }),
    holdId: z.string().nullable().meta({ description: 'The hold created, voided, captured or expired, or null' }),
  })
  .meta({ id: 'BalanceCrossing' });

export function balanceMonitorJson(monitor: BalanceMonitorView) {
  return {
    id: monitor.id,
    projectId: monitor.projectId,
    walletId: monitor.walletId,
    currency: monitor.symbol,
    field: monitor.field,
    operator: monitor.operator,
    value: toMajor(monitor.value, monitor.fractions),
    created_at: monitor.createdAt.toISOString(),
  };
}

export function crossingJson(crossing: CrossingView) {
  return {
    monitorId: crossing.monitorId,
    walletId: crossing.walletId,
    address: crossing.address,
    currency: crossing.symbol,
    field: crossing.field,
    operator: crossing.operator,
    value: toMajor(crossing.value, crossing.fractions),
    previous: toMajor(crossing.previous, crossing.fractions),
    current: toMajor(crossing.current, crossing.fractions),
    transactionId: crossing.transactionId,
    holdId: crossing.holdId,
  };
}

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
