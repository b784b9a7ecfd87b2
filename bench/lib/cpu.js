import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

// CPU time from /proc (utime + stime, in clock ticks of 10 ms on Linux): what one run cost the
// server process and PostgreSQL, independent of what the other sessions on the machine do.
const TICK_MS = 10;

function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return {
      ppid: Number(fields[1]),
      ticks: Number(fields[11]) + Number(fields[12]),
      user: Number(fields[11]),
      system: Number(fields[12]),
      /** CPU of children that have exited and been reaped (autovacuum workers, closed backends). */
      reaped: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return undefined;
  }
}

/** CPU ms used so far by one process. */
export function processCpuMs(pid) {
  return (stat(pid)?.ticks ?? 0) * TICK_MS;
}

/** The same, split into user and kernel (system) time. */
export function processCpuSplitMs(pid) {
  const s = stat(pid);
  return { user: (s?.user ?? 0) * TICK_MS, system: (s?.system ?? 0) * TICK_MS };
}

/**
 * CPU ms used so far by the postmaster of `dataDir` and all its children: the live ones (backends,
 * workers) and those that have exited (counted in the postmaster's reaped-children time).
 */
export function clusterCpuMs(dataDir) {
  const postmaster = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const own = stat(postmaster);
  let ticks = (own?.ticks ?? 0) + (own?.reaped ?? 0);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = stat(entry);
    if (s?.ppid === postmaster) ticks += s.ticks;
  }
  return ticks * TICK_MS;
}
