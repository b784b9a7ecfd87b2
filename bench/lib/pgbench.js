// The pgbench arm: PostgreSQL's own load generator runs the baseline's one-statement transfer
// (bench/baseline/transfer.js) with no HTTP and no Node in between: what the database alone
// sustains for this statement on this machine. Wallets are named by `seq` (pgbench variables
// are integers), an equally unique index lookup.

import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { transferSql } from '../baseline/transfer.js';

export const PGBENCH = process.env.PGBENCH ?? '/usr/lib/postgresql/15/bin/pgbench';

/** { version } or { skip: reason }. */
export function pgbenchAvailable() {
  try {
    return { version: execFileSync(PGBENCH, ['--version'], { encoding: 'utf8' }).trim() };
  } catch (error) {
    return { skip: `no pgbench client at ${PGBENCH} (${error.code ?? error.message}); install postgresql-client or set PGBENCH` };
  }
}

/**
 * Customer wallets' seq values must be one contiguous range for `random(lo, hi)` to pick
 * only customers; returns the variables the scripts need, or { skip }.
 */
export async function pgbenchVariables(pool, fixture) {
  const { rows } = await pool.query(
    `SELECT p.owner_id, min(w.seq) FILTER (WHERE w.type = 'customer') AS lo, max(w.seq) FILTER (WHERE w.type = 'customer') AS hi,
            count(*) FILTER (WHERE w.type = 'customer') AS customers, min(w.seq) FILTER (WHERE w.id = $2) AS system
       FROM projects p JOIN wallets w ON w.project_id = p.id WHERE p.id = $1 GROUP BY p.owner_id`,
    [fixture.projectId, fixture.systemWallet.id],
  );
  const v = rows[0];
  if (!v || Number(v.hi) - Number(v.lo) + 1 !== Number(v.customers)) return { skip: 'customer wallet seq values are not contiguous' };
  return { project: fixture.projectId, owner: v.owner_id, currency: fixture.currency, lo: v.lo, hi: v.hi, system: v.system };
}

const param = (name) => `:${name}`;

/** `uniform`: random customer -> random other customer; `hot`: system wallet -> random customer. */
export function pgbenchScript(kind) {
  const pick =
    kind === 'hot'
      ? ['\\set from :system', '\\set to random(:lo, :hi)']
      : ['\\set from random(:lo, :hi)', '\\set to random(:lo, :hi - 1)', '\\if :to >= :from', '\\set to :to + 1', '\\endif'];
  return `${pick.join('\n')}\n${transferSql({ from: 'seq', to: 'seq', param }).trim()};\n`;
}

/** Seconds pgbench runs beyond `duration`: its clients connect and prepare meanwhile. */
const LEAD_SECONDS = 5;

/**
 * One pgbench run: `clients` connections (-j 2 threads, prepared statements). pgbench opens its
 * connections when it starts (the HTTP arms keep theirs open across runs), so the measured
 * window starts once every client has sent a first transaction, from pgbench's
 * per-transaction log (-l): throughput, latencies and, through `cpuNow` sampled meanwhile,
 * PostgreSQL's CPU. Figures in the shape of runLoad's; `ok` counts every transaction (for the
 * ledger check), `measured` those of the window.
 */
export async function runPgbench({ url, dir, kind, variables, clients, duration, cpuNow }) {
  const script = path.join(dir, `pgbench-${kind}.sql`);
  writeFileSync(script, pgbenchScript(kind));
  const prefix = `pgbench-log-${Date.now()}`;
  const defines = Object.entries(variables).flatMap(([k, v]) => ['-D', `${k}=${v}`]);
  const args = ['-n', '-M', 'prepared', '-c', String(clients), '-j', '2', '-T', String(duration + LEAD_SECONDS), '-f', script, '-l', `--log-prefix=${path.join(dir, prefix)}`, ...defines, url];
  const cpuSamples = [];
  const sampler = setInterval(() => cpuSamples.push([Date.now() / 1000, cpuNow()]), 250);
  const { code, stdout, stderr } = await run(PGBENCH, args);
  clearInterval(sampler);
  const end = Date.now() / 1000;
  const cpuEnd = cpuNow();
  const processed = Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1] ?? 0);
  const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? 0);
  const aborted = (stderr.match(/client \d+ aborted/g) ?? []).length;
  if (code !== 0 && processed === 0) throw new Error(`pgbench exited with ${code}: ${stderr.slice(-800)}`);
  // log line: client_id transaction_no time_us script_no end_epoch_s end_us
  const done = [];
  const firstStart = new Map();
  for (const file of readdirSync(dir).filter((f) => f.startsWith(prefix))) {
    for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      const f = line.split(' ');
      const micros = Number(f[2]);
      if (!Number.isFinite(micros)) continue;
      const at = Number(f[4]) + Number(f[5]) / 1e6;
      done.push([at, micros / 1000]);
      if (!(firstStart.get(f[0]) <= at - micros / 1e6)) firstStart.set(f[0], at - micros / 1e6);
    }
  }
  const start = Math.max(...firstStart.values()); // the last client has connected and sent its first transaction
  const latencies = done.filter(([at]) => at > start).map(([, ms]) => ms).sort((a, b) => a - b);
  const q = (p) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] : NaN);
  const cpuAtStart = cpuSamples.find(([t]) => t >= start);
  const seconds = end - start;
  return {
    rps: latencies.length / seconds,
    okPerSecond: latencies.length / seconds,
    p50: q(0.5),
    p90: q(0.9),
    p99: q(0.99),
    max: latencies.at(-1) ?? NaN,
    requests: processed + failed,
    ok: processed,
    measured: latencies.length,
    non2xx: 0,
    errors: failed + aborted,
    timeouts: 0,
    bodyErrors: 0,
    errorCount: failed + aborted,
    statuses: { ok: processed, ...(failed ? { failed } : {}), ...(aborted ? { 'aborted clients': aborted } : {}) },
    duration: seconds,
    connectingSeconds: start - (end - duration - LEAD_SECONDS),
    cpuPgMs: cpuAtStart ? ((cpuEnd - cpuAtStart[1]) * seconds) / (end - cpuAtStart[0]) : NaN,
    tpsReportedByPgbench: Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1] ?? NaN),
    firstBodyError: aborted ? stderr.split('\n').find((l) => /aborted/.test(l)) : undefined,
  };
}

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
