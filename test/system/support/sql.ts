import pg from 'pg';
import type { Queryable } from './invariants.js';

/** A plain pg client on a database URL, with the `query → rows` shape the checks use. */
export async function connectSql(url: string): Promise<Queryable & { close(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  // Crash tests kill the cluster under these clients: a server that ends an idle connection (57P01
  // once the postmaster is gone, possibly while close() is on its way) emits 'error' with no query
  // to reject, and an unheard 'error' event fails the whole file. A query in flight still rejects.
  client.on('error', () => undefined);
  await client.connect();
  return {
    async query<T>(text: string, params?: unknown[]) {
      return (await client.query(text, params)).rows as T[];
    },
    close: () => client.end(),
  };
}
