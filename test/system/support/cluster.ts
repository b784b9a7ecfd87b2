import { readdirSync, readlinkSync } from 'node:fs';
import { clusterDir } from '../../../src/db/embedded-postgres.js';

/**
 * Pids of processes working in the embedded cluster of `dataDir` (PostgreSQL chdirs into its
 * data directory). Backends run in their own sessions, so a SIGKILL of the service's process
 * group leaves them orphaned for a moment; a restart must wait until they have noticed the
 * postmaster's death and exited, or PostgreSQL refuses the still-attached shared memory.
 */
export function clusterProcesses(dataDir: string): number[] {
  const dir = clusterDir(dataDir);
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) === dir) pids.push(Number(entry));
    } catch {
      /* gone, or not ours to read */
    }
  }
  return pids;
}

export async function waitForClusterExit(dataDir: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (clusterProcesses(dataDir).length > 0) {
    if (Date.now() > deadline) throw new Error(`embedded PostgreSQL processes still alive: ${clusterProcesses(dataDir).join(', ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
