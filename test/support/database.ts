import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { embeddedUrl } from '../../src/db/embedded-postgres.js';
import { watchStall } from './stall-dump.js';

export function clusterPort(): number {
  const port = Number(process.env.LEDGER_TEST_PG_PORT);
  if (!port) throw new Error('LEDGER_TEST_PG_PORT is not set: run tests through npm test');
  return port;
}

/**
 * The Citus lane's worker ports (test/support/global-setup.mjs), none on the other lanes. Each
 * database of a Citus cluster is made on every node: CREATE DATABASE … TEMPLATE on the coordinator
 * alone would copy its metadata but not the shards on the workers (docs/decisions/citus-lane.md).
 */
function workerPorts(): number[] {
  return (process.env.LEDGER_TEST_CITUS_WORKER_PORTS ?? '').split(',').filter(Boolean).map(Number);
}

/*
 * Databases made here are never dropped: the run's cluster is removed whole at the end
 * (global-teardown.mjs). DROP DATABASE waits for a checkpoint of the whole cluster, which on a
 * loaded machine lasts as long as writing out every test database's dirty pages
 * (docs/decisions/ci-hang-checkpoint.md).
 */

/** A new, migrated database cloned from the run's template; returns its URL. */
export async function createTestDatabase(): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const citus = workerPorts().length > 0;
  await Promise.all(
    [clusterPort(), ...workerPorts()].map((port) =>
      admin(port, `createTestDatabase ${name}`, async (client) => {
        if (citus) {
          // Citus's maintenance daemon keeps a session in the template, which CREATE DATABASE refuses;
          // the template takes no new ones, so none comes back after it is ended
          await client.query('ALTER DATABASE ledger_template ALLOW_CONNECTIONS false');
          await client.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'ledger_template' AND pid <> pg_backend_pid()");
        }
        await client.query(`CREATE DATABASE ${name} TEMPLATE ledger_template`);
      }),
    ),
  );
  return embeddedUrl(clusterPort(), name);
}

/** A new, empty database (no migration applied), for tests that migrate step by step; returns its URL. */
export async function createEmptyDatabase(): Promise<string> {
  const name = `m_${randomBytes(6).toString('hex')}`;
  await Promise.all([clusterPort(), ...workerPorts()].map((port) => admin(port, `createEmptyDatabase ${name}`, (client) => client.query(`CREATE DATABASE ${name}`))));
  if (workerPorts().length > 0) {
    // a Citus database: the extension on every node, then the coordinator told where its nodes are
    await Promise.all([clusterPort(), ...workerPorts()].map((port) => admin(port, 'CREATE EXTENSION citus', (client) => client.query('CREATE EXTENSION citus'), name)));
    await admin(
      clusterPort(),
      'add the Citus nodes',
      async (client) => {
        await client.query('SELECT citus_set_coordinator_host($1, $2)', ['127.0.0.1', clusterPort()]);
        for (const port of workerPorts()) await client.query('SELECT citus_add_node($1, $2)', ['127.0.0.1', port]);
      },
      name,
    );
  }
  return embeddedUrl(clusterPort(), name);
}

/** Runs `fn` on an administrator's connection to one node, its steps watched for stalls (stall-dump.ts). */
async function admin<T>(port: number, step: string, fn: (client: pg.Client) => Promise<T>, database = 'postgres'): Promise<T> {
  const url = embeddedUrl(port, database);
  const client = new pg.Client({ connectionString: url });
  await watchStall(`connect to the test cluster (${step})`, url, () => client.connect());
  try {
    return await watchStall(step, url, () => fn(client));
  } finally {
    await client.end();
  }
}
