import pg from 'pg';
import type { Queryable } from './invariants.js';

/** A plain pg client on a database URL, with the `query → rows` shape the checks use. */
export async function connectSql(url: string): Promise<Queryable & { close(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    async query<T>(text: string, params?: unknown[]) {
      return (await client.query(text, params)).rows as T[];
    },
    close: () => client.end(),
  };
}
