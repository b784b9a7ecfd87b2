import type { Database } from '../../db/database.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

/** One owner's calls of one UTC day to add (`api_call_counts`). */
export interface CallIncrement {
  ownerId: string;
  day: string;
  calls: number;
}

/** The daily call counts of CallCounter, per owner and UTC day. */
export class CallCountRepository {
  constructor(private readonly db: Database) {}

  /** Calls counted so far for (owner, day), every instance included. */
  async load(ownerId: string, day: string): Promise<number> {
    const [row] = await this.db.query<{ calls: string }>(`SELECT calls FROM api_call_counts WHERE owner_id = $1 AND day = $2`, [ownerId, day]);
    return row ? Number(row.calls) : 0;
  }

  /**
   * Adds `unsent` calls plus this one only if the total stays within `limit`: the new total, or
   * null when it would not (nothing is added then).
   */
  async addOneWithin(ownerId: string, day: string, unsent: number, limit: number): Promise<number | null> {
    const [row] = await this.db.query<{ calls: string }>(
      `INSERT INTO api_call_counts (owner_id, day, calls) VALUES ($1, $2, $3::bigint + 1)
       ON CONFLICT (owner_id, day) DO UPDATE SET calls = api_call_counts.calls + EXCLUDED.calls
         WHERE api_call_counts.calls + EXCLUDED.calls <= $4
       RETURNING calls`,
      [ownerId, day, unsent, limit],
    );
    return row ? Number(row.calls) : null;
  }

  /** Adds every increment in one statement; answers each (owner, day)'s new total, keyed `owner/day`. */
  async addAll(increments: CallIncrement[]): Promise<Map<string, number>> {
    const rows = await this.db.query<{ owner_id: string; day: string; calls: string }>(
      `INSERT INTO api_call_counts (owner_id, day, calls)
         SELECT * FROM unnest($1::text[], $2::date[], $3::bigint[])
       ON CONFLICT (owner_id, day) DO UPDATE SET calls = api_call_counts.calls + EXCLUDED.calls
       RETURNING owner_id, to_char(day, 'YYYY-MM-DD') AS day, calls`,
      [increments.map((i) => i.ownerId), increments.map((i) => i.day), increments.map((i) => i.calls)],
    );
    return new Map(rows.map((r) => [`${r.owner_id}/${r.day}`, Number(r.calls)]));
  }
}

/** Sample calls: src/queries/call-count.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new CallCountRepository(db),
  calls: {
    load: (r) => r.load(SAMPLE.owner, '2026-01-01'),
    addOneWithin: (r) => r.addOneWithin(SAMPLE.owner, '2026-01-01', 0, 1000),
    addAll: (r) => r.addAll([{ ownerId: SAMPLE.owner, day: '2026-01-01', calls: 1 }]),
  },
});
