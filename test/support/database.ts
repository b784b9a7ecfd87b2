import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { embeddedUrl } from '../../src/db/embedded-postgres.js';
import { watchStall } from './stall-dump.js';

export function clusterPort(): number {
  const port = Number(process.env.LEDGER_TEST_PG_PORT);
  if (!port) throw new Error('LEDGER_TEST_PG_PORT is not set: run tests through npm test');
  return port;
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
  const url = embeddedUrl(clusterPort(), 'postgres');
  const admin = new pg.Client({ connectionString: url });
  await watchStall('connect to the test cluster', url, () => admin.connect());
  try {
    await watchStall(`createTestDatabase ${name}`, url, () => admin.query(`CREATE DATABASE ${name} TEMPLATE ledger_template`));
  } finally {
    await admin.end();
  }
  return embeddedUrl(clusterPort(), name);
}

/** A new, empty database (no migration applied), for tests that migrate step by step; returns its URL. */
export async function createEmptyDatabase(): Promise<string> {
  const name = `m_${randomBytes(6).toString('hex')}`;
  const url = embeddedUrl(clusterPort(), 'postgres');
  const admin = new pg.Client({ connectionString: url });
  await watchStall('connect to the test cluster', url, () => admin.connect());
  try {
    await watchStall(`createEmptyDatabase ${name}`, url, () => admin.query(`CREATE DATABASE ${name}`));
  } finally {
    await admin.end();
  }
  return embeddedUrl(clusterPort(), name);
}
