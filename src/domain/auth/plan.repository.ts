import type { Database } from '../../db/database.js';
import type { Plan } from './plans.js';
import { sqlSamples } from '../../db/sql-samples.js';

/** The plan table is data (seeded by a migration); it is read once and kept. */
export class PlanRepository {
  constructor(private readonly db: Database) {}

  /** Every plan by its code. */
  async load(): Promise<Map<string, Plan>> {
    const rows = await this.db.query<Plan & { api_calls_per_day: string }>(
      `SELECT code, projects, assets_per_project, customer_wallets, system_wallets, api_calls_per_day,
              advanced_analytics, custom_branding, priority_support
         FROM plans ORDER BY rank`,
    );
    return new Map(rows.map((row) => [row.code, { ...row, api_calls_per_day: Number(row.api_calls_per_day) }]));
  }
}

/** Sample calls: src/queries/plan.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new PlanRepository(db),
  calls: {
    load: (r) => r.load(),
  },
});
