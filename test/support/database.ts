import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { embeddedUrl } from '../../src/db/embedded-postgres.js';

export function clusterPort(): number {
  const port = Number(process.env.LEDGER_TEST_PG_PORT);
  if (!port) throw new Error('LEDGER_TEST_PG_PORT is not set: run tests through npm test');
  return port;
}

/** A new, migrated database cloned from the run's template; returns its URL. */
export async function createTestDatabase(): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: embeddedUrl(clusterPort(), 'postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ledger_template`);
  } finally {
    await admin.end();
  }
  return embeddedUrl(clusterPort(), name);
}

/** A new, empty database (no migration applied), for tests that migrate step by step; returns its URL. */
export async function createEmptyDatabase(): Promise<string> {
  const name = `m_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: embeddedUrl(clusterPort(), 'postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return embeddedUrl(clusterPort(), name);
}
