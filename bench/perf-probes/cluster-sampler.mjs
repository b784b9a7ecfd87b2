// Samples, every 250 ms, the CPU of every process of a PostgreSQL cluster that another program
// (the shared/perf harness) starts, by kind: backend type and database (client backends of
// `ledger`, of `baseline`, autovacuum workers per database, walwriter, checkpointer, …), plus the
// connections opened per database and what autovacuum works on. Written to answer issue 23 P2:
// what, in the harness's later rounds, makes the service's "db µs per 2xx" grow (the harness
// charges every process of its one cluster to the arm being measured).
//
//   node bench/perf-probes/cluster-sampler.mjs --match max_wal_size=8GB --out /tmp/samples.jsonl &
//   (then run the harness; stop the sampler with SIGTERM; bench/perf-probes/cluster-windows.mjs reads both)

import { readFileSync, readdirSync, writeFileSync, appendFileSync } from 'node:fs';
import pg from 'pg';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const match = option('match', 'max_wal_size=8GB');
const out = option('out', '/tmp/cluster-samples.jsonl');
const password = option('password', 'perf');
writeFileSync(out, '');

const stat = (pid) => {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), cticks: Number(f[13]) + Number(f[14]), start: Number(f[19]) };
  } catch {
    return null;
  }
};
const cpuNs = (pid) => {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return null;
  }
};
const cmdline = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
};
const pids = () => readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
const before = new Set(pids());
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let postmaster;
while (!postmaster) {
  for (const pid of pids()) {
    if (before.has(pid)) continue;
    const c = cmdline(pid);
    if (c.some((x) => x.endsWith('postgres')) && c.join(' ').includes(match)) {
      const p = stat(pid);
      if (p && !cmdline(p.ppid).some((x) => x.endsWith('postgres'))) postmaster = pid;
    }
  }
  if (!postmaster) await sleep(200);
}
const argv = cmdline(postmaster);
const port = argv[argv.indexOf('-p') + 1];
let client;
while (!client) {
  try {
    const c = new pg.Client({ host: '127.0.0.1', port: Number(port), user: 'postgres', password, database: 'postgres' });
    await c.connect();
    client = c;
  } catch {
    await sleep(500);
  }
}
const own = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
console.error(`cluster-sampler: postmaster ${postmaster}, port ${port}`);

let last = new Map(); // pid -> { ns, kind }
let lastReaped = stat(postmaster).cticks;
let stopping = false;
process.on('SIGTERM', () => { stopping = true; });
while (!stopping && stat(postmaster)) {
  let rows = [];
  try {
    rows = (await client.query(`SELECT pid, backend_type, datname, CASE WHEN backend_type = 'autovacuum worker' THEN query END AS query FROM pg_stat_activity`)).rows;
  } catch {
    break;
  }
  const kinds = new Map(rows.map((r) => [r.pid, r.pid === own ? 'sampler' : `${r.backend_type}${r.datname ? `:${r.datname}` : ''}`]));
  const now = new Map();
  const cpu = {};
  const opened = {};
  const add = (kind, ns) => { cpu[kind] = (cpu[kind] ?? 0) + ns; };
  for (const pid of pids()) {
    const s = stat(pid);
    if (!s || (pid !== postmaster && s.ppid !== postmaster)) continue;
    const ns = cpuNs(pid);
    if (ns === null) continue;
    const prev = last.get(pid);
    const kind = pid === postmaster ? 'postmaster' : kinds.get(pid) ?? prev?.kind ?? 'starting';
    now.set(pid, { ns, kind });
    add(kind, ns - (prev?.ns ?? 0));
    if (!prev && kind.startsWith('client backend')) opened[kind] = (opened[kind] ?? 0) + 1;
  }
  // processes gone since the last sample: what they used after it reaches the postmaster's cutime (ticks of 10 ms)
  const reaped = stat(postmaster)?.cticks ?? lastReaped;
  const counted = [...last].filter(([pid]) => !now.has(pid)).reduce((a, [, p]) => a + p.ns, 0); // their CPU up to the last sample
  add('exited (rest)', Math.max(0, (reaped - lastReaped) * 1e7 - counted));
  lastReaped = reaped;
  last = now;
  const vacuums = rows.filter((r) => r.query).map((r) => `${r.datname}: ${r.query}`);
  appendFileSync(out, `${JSON.stringify({ t: Date.now(), cpu, opened, vacuums })}\n`);
  await sleep(250);
}
await client.end().catch(() => undefined);
