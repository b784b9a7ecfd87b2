import pg from 'pg';
import { embeddedUrl } from '../../src/db/embedded-postgres.js';
import { clusterPort } from './database.js';

/**
 * Runs `fn` with the test cluster's checkpointer stopped (SIGSTOP), so that no checkpoint can
 * finish meanwhile: the longest checkpoint a loaded machine can produce. A step that waits for one
 * (DROP DATABASE, CREATE DATABASE … STRATEGY FILE_COPY, CHECKPOINT) hangs until the test's time-out;
 * docs/decisions/ci-hang-checkpoint.md. The checkpointer is resumed however `fn` ends.
 */
export async function withCheckpointerStopped<T>(fn: () => Promise<T>): Promise<T> {
  const pid = await checkpointerPid();
  process.kill(pid, 'SIGSTOP');
  try {
    return await fn();
  } finally {
    process.kill(pid, 'SIGCONT');
  }
}

async function checkpointerPid(): Promise<number> {
  const client = new pg.Client({ connectionString: embeddedUrl(clusterPort(), 'postgres') });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'`);
    if (rows.length !== 1) throw new Error(`expected one checkpointer, found ${rows.length}`);
    return rows[0].pid;
  } finally {
    await client.end();
  }
}
