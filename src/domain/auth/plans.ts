import type { Database } from '../../db/database.js';
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

/** The plan table is data (seeded by a migration); it is read once and kept. */
export async function loadPlans(db: Database): Promise<Map<string, Plan>> {
  const rows = await db.query<Plan & { api_calls_per_day: string }>(
    `SELECT code, projects, assets_per_project, customer_wallets, system_wallets, api_calls_per_day,
            advanced_analytics, custom_branding, priority_support
       FROM plans ORDER BY rank`,
  );
  return new Map(rows.map((row) => [row.code, { ...row, api_calls_per_day: Number(row.api_calls_per_day) }]));
}
