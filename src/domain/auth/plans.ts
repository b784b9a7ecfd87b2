import { LedgerError } from '../errors.js';

export interface Plan {
  code: string;
  projects: number;
  assets_per_project: number;
  customer_wallets: number;
  system_wallets: number;
  api_calls_per_day: number;
  advanced_analytics: boolean;
  custom_branding: boolean;
  priority_support: boolean;
}

export type QuotaName = 'projects' | 'assets_per_project' | 'customer_wallets' | 'system_wallets';

export const quotaExceeded = (quota: QuotaName, limit: number): LedgerError =>
  new LedgerError('quota_exceeded', `the plan allows at most ${limit} (${quota})`, { quota, limit });
