import { z } from 'zod';
import { LedgerError, validationError } from '../errors.js';
import { AmountRule, toMinor } from '../money.js';
import { CurrencyRule, WalletRefRule } from '../ledger/ledger.rules.js';
import { ProjectIdRule } from '../shared/ids.js';
import { MONITOR_FIELDS, MONITOR_OPERATORS } from './monitor.types.js';

/** Monitors one project may have (CONTRACT §20). */
export const MAX_MONITORS_PER_PROJECT = 100;

export const monitorQuotaExceeded = (): LedgerError =>
  new LedgerError('quota_exceeded', `a project has at most ${MAX_MONITORS_PER_PROJECT} balance monitors`, { quota: 'balance_monitors', limit: MAX_MONITORS_PER_PROJECT });

/**
 * A threshold in major units as REST takes it: a JSON number ≥ 0 (0 included, unlike an amount),
 * or the exact text of a number the double would alter (AmountRule). Its decimals are checked
 * against the currency's fractions once the currency is known (thresholdMinor).
 */
export const ThresholdRule = z.union([z.literal(0), AmountRule], { error: 'must be a number ≥ 0' });
ThresholdRule._zod.toJSONSchema = () => ({ type: 'number', minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

/** What the service takes besides: a GraphQL Decimal's text ("12.50"). */
const AnyThresholdRule = z.union([z.number(), z.string()], { error: 'must be a number ≥ 0' });

export const CreateMonitorRules = z.object({
  projectId: ProjectIdRule,
  currency: CurrencyRule,
  field: z.enum(MONITOR_FIELDS),
  operator: z.enum(MONITOR_OPERATORS),
  value: AnyThresholdRule,
  walletId: WalletRefRule.nullish(),
});

/** The threshold in minor units: exact, at most the currency's decimals (400 otherwise, as amounts are). */
export function thresholdMinor(value: number | string, fractions: number): bigint {
  if (value === 0 || (typeof value === 'string' && /^\s*0+(\.0+)?\s*$/.test(value))) {
    const decimals = typeof value === 'string' ? (value.trim().split('.')[1] ?? '').length : 0;
    if (decimals > fractions) throw validationError('value', `has more than ${fractions} decimal places`);
    return 0n;
  }
  if (typeof value === 'number' && value < 0) throw validationError('value', 'must be a number ≥ 0');
  if (typeof value === 'string' && value.trim().startsWith('-')) throw validationError('value', 'must be a number ≥ 0');
  return toMinor(value, fractions, 'value');
}
