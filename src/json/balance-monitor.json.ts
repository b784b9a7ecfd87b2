import { z } from 'zod';
import { MONITOR_FIELDS, MONITOR_OPERATORS, type BalanceMonitorView, type CrossingView } from '../domain/monitors/monitor.types.js';
import { toMajor } from '../domain/money.js';

/** A balance monitor (CONTRACT §20). */
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
