import type pg from 'pg';

/** Named statements a connection prepares before it drops them all and starts over (fixed ones, and plans: src/graphql/sql-plan/prepared.ts). */
export const MAX_PREPARED_PER_CONNECTION = 64;

interface Tracked {
  /** Names this connection was asked to prepare since it last dropped them (node-postgres's record of them, below). */
  prepared: number;
}

interface NamedQuery {
  name?: unknown;
}

/** node-postgres's record of what a connection has prepared: it prepares a name only once per connection. */
interface PgConnection {
  parsedStatements: Record<string, string>;
}

const tracked = new WeakMap<pg.PoolClient, Tracked>();

/**
 * Keeps a pooled connection's prepared statements bounded (CONTRACT §18, memory bounded): names
 * for generated plans come and go (least recently used out, under names never reused), and each
 * stays prepared in the connection's backend, and in node-postgres's record of it, until it is
 * dropped. Called at every checkout, when the connection runs nothing: past
 * MAX_PREPARED_PER_CONNECTION names, `DEALLOCATE ALL` goes first in its queue and node-postgres
 * forgets them too, so whatever it is sent next is prepared again. O(1) at each checkout and
 * each statement (a counter), never a scan.
 */
export function limitPreparedStatements(client: pg.PoolClient): void {
  let state = tracked.get(client);
  if (!state) {
    tracked.set(client, (state = { prepared: 0 }));
    countNewNames(client, state);
  }
  if (state.prepared <= MAX_PREPARED_PER_CONNECTION) return;
  state.prepared = 0;
  connectionOf(client).parsedStatements = {};
  client.query('DEALLOCATE ALL').catch(() => undefined); // a broken connection fails its next statement, which reports it
}

function countNewNames(client: pg.PoolClient, state: Tracked): void {
  const original = client.query.bind(client) as (...args: unknown[]) => unknown;
  const parsed = () => connectionOf(client).parsedStatements;
  (client as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const name = (args[0] as NamedQuery | null)?.name;
    if (typeof name === 'string' && parsed()[name] === undefined) state.prepared++;
    return original(...args);
  };
}

function connectionOf(client: pg.PoolClient): PgConnection {
  return (client as unknown as { connection: PgConnection }).connection;
}
