import { rmSync } from 'node:fs';
import pg from 'pg';
import { embeddedUrl } from '../../dist/src/db/embedded-postgres.js';

export default async function globalTeardown() {
  const cluster = globalThis.__ledgerCluster;
  if (cluster) {
    await resumeCheckpointer(cluster.port);
    await cluster.stop();
  }
  if (process.env.LEDGER_TEST_DATA_DIR) rmSync(process.env.LEDGER_TEST_DATA_DIR, { recursive: true, force: true });
}

/**
 * A test that timed out inside withCheckpointerStopped (test/support/checkpointer.ts) left the
 * checkpointer stopped; the cluster's shutdown checkpoint would then never end.
 */
async function resumeCheckpointer(port) {
  const client = new pg.Client({ connectionString: embeddedUrl(port, 'postgres') });
  try {
    await client.connect();
    const { rows } = await client.query(`SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'`);
    for (const { pid } of rows) process.kill(pid, 'SIGCONT');
  } catch {
    // the cluster is gone already: nothing to resume
  } finally {
    await client.end().catch(() => undefined);
  }
}
