// Where PostgreSQL's CPU goes, per transfer, under the `transfers` (uniform) and `hot` workloads
// of POST /transactions (issue 23, P2: hot ÷ uniform). One embedded cluster, one service (as
// `npm start` runs it), the bench data set (bench/lib/seed.js, over HTTP), then rounds that
// alternate the two workloads (autocannon, 64 connections), service only: no other arm runs
// between them. Per run: every PostgreSQL process's CPU (/proc/<pid>/schedstat) grouped by its
// backend type (client backends, autovacuum workers, walwriter, …; `exited`: the processes that
// ended during the run — autovacuum workers, pool connections closed when idle), the top-level statements
// (pg_stat_statements: time, calls and shared blocks per 2xx) and the table counters of the
// posting tables (updates, of them HOT, inserts, heap and index blocks read), each per 2xx answer.
//
//   npm run build && node bench/hot-breakdown.mjs [--duration 10] [--rounds 2] [--connections 64] [--statements 8]

import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startCluster } from './lib/postgres.js';
import { startServer, freePort, serviceNodeFlags } from './lib/processes.js';
import { seedService } from './lib/seed.js';
import { runLoad } from './lib/load.js';
import { transfersWorkload } from './workloads/transfers.js';
import { hotWorkload } from './workloads/hot.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const duration = Number(option('duration', 10));
const rounds = Number(option('rounds', 2));
const connections = Number(option('connections', 64));
const topStatements = Number(option('statements', 8));

const cpuNs = (pid) => {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return 0;
  }
};
const ppidOf = (pid) => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return -1;
  }
};
/** CPU ns of the postmaster's children that it has reaped (clock ticks of 10 ms). */
const reapedNs = (pid) => {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 1e7;
};
/** CPU ns of the postmaster and its children, by pid (-1: children reaped so far). */
function clusterCpu(postmaster) {
  const out = new Map([[postmaster, cpuNs(postmaster)], [-1, reapedNs(postmaster)]]);
  for (const entry of readdirSync('/proc')) if (/^\d+$/.test(entry) && ppidOf(Number(entry)) === postmaster) out.set(Number(entry), cpuNs(entry));
  return out;
}

const TABLE_COUNTERS = `SELECT s.relname, s.n_tup_upd, s.n_tup_hot_upd, s.n_tup_ins, io.heap_blks_hit + io.heap_blks_read AS heap_blks,
       io.idx_blks_hit + io.idx_blks_read AS idx_blks
  FROM pg_stat_user_tables s JOIN pg_statio_user_tables io USING (relid)
 WHERE s.relname IN ('balances', 'wallets', 'transactions', 'events', 'analytics_active_wallets', 'analytics_buckets')`;

const dataDir = mkdtempSync(path.join(tmpdir(), 'hot-breakdown-'));
const cluster = await startCluster(dataDir);
const postmaster = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
let server;
try {
  const url = await cluster.createMigratedDatabase('hot_breakdown');
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`ALTER SYSTEM SET pg_stat_statements.track = 'all'`);
  await admin.query(`SELECT pg_reload_conf()`);
  const adminToken = `bench-${randomBytes(12).toString('hex')}`;
  server = await startServer('service', [...serviceNodeFlags(), 'dist/src/main.js'], {
    DATABASE_URL: url, PORT: String(await freePort()), HOST: '127.0.0.1', LEDGER_ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn',
  });
  const fixture = await seedService(server.url, adminToken, { historyTransfers: 2000 });
  await admin.query('VACUUM ANALYZE');
  const workloads = [transfersWorkload(fixture), hotWorkload(fixture)];
  for (const w of workloads) await runLoad({ name: 'service', url: server.url }, w, { connections, duration: 3 }); // warm-up
  const results = { transfers: [], hot: [] };
  for (let r = 0; r < rounds; r++) {
    for (const w of r % 2 ? [...workloads].reverse() : workloads) {
      await admin.query('CHECKPOINT');
      await admin.query('SELECT pg_stat_statements_reset()');
      await admin.query('SELECT pg_stat_clear_snapshot()');
      const tables0 = (await admin.query(TABLE_COUNTERS)).rows;
      const cpu0 = clusterCpu(postmaster);
      const app0 = cpuNs(server.pid);
      const load = await runLoad({ name: 'service', url: server.url }, w, { connections, duration });
      const cpu1 = clusterCpu(postmaster);
      const activity = (await admin.query(`SELECT pid, backend_type, query FROM pg_stat_activity`)).rows;
      await admin.query('SELECT pg_stat_clear_snapshot()');
      const tables1 = (await admin.query(TABLE_COUNTERS)).rows;
      const statements = (await admin.query(
        `SELECT calls, total_exec_time, shared_blks_hit, regexp_replace(query, '\\s+', ' ', 'g') AS query FROM pg_stat_statements
          WHERE toplevel AND query NOT ILIKE '%pg_stat%' ORDER BY total_exec_time DESC LIMIT ${topStatements}`,
      )).rows;
      const groups = {};
      for (const [pid, ns] of cpu1) {
        const a = activity.find((x) => x.pid === pid);
        const group = pid === -1 ? 'exited' : a ? a.backend_type : pid === postmaster ? 'postmaster' : 'gone';
        groups[group] = (groups[group] ?? 0) + (ns - (cpu0.get(pid) ?? 0));
      }
      // a process that ended during the run was reaped with its whole life's CPU: take off what it had used before
      for (const [pid, ns] of cpu0) if (pid !== -1 && !cpu1.has(pid)) groups.exited -= ns;
      const ok = load.ok;
      const us = Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, v / ok / 1000]));
      const tables = Object.fromEntries(tables1.map((t) => {
        const b = tables0.find((x) => x.relname === t.relname);
        const per = (k) => (Number(t[k]) - Number(b[k])) / ok;
        return [t.relname, { upd: per('n_tup_upd'), hot: per('n_tup_hot_upd'), ins: per('n_tup_ins'), heap: per('heap_blks'), idx: per('idx_blks') }];
      }));
      const total = Object.values(us).reduce((a, b) => a + b, 0);
      const node = (cpuNs(server.pid) - app0) / ok / 1000;
      results[w.name].push({ total, node, rate: load.okPerSecond });
      console.log(`\n== ${w.name}, round ${r + 1}: ${load.okPerSecond.toFixed(0)}/s, Node ${node.toFixed(0)} µs per 2xx, PostgreSQL ${total.toFixed(0)}: ${Object.entries(us).filter(([, v]) => v >= 0.5).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`);
      for (const [name, t] of Object.entries(tables)) console.log(`   ${name.padEnd(26)} per 2xx: upd ${t.upd.toFixed(2)} (HOT ${t.hot.toFixed(2)}), ins ${t.ins.toFixed(2)}, heap blocks ${t.heap.toFixed(2)}, index blocks ${t.idx.toFixed(2)}`);
      for (const s of statements.map((x) => ({ us: (x.total_exec_time * 1000) / ok, calls: x.calls / ok, blks: x.shared_blks_hit / ok, query: x.query.slice(0, 110) })))
        console.log(`   ${s.us.toFixed(1).padStart(7)} µs ${s.calls.toFixed(2).padStart(6)} calls ${s.blks.toFixed(1).padStart(6)} blks  ${s.query}`);
    }
  }
  const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
  const of = (name, key) => mean(results[name].map((x) => x[key]));
  console.log(`\nmeans of ${rounds} rounds, µs per 2xx (Node + PostgreSQL) and 2xx/s: transfers ${of('transfers', 'node').toFixed(0)} + ${of('transfers', 'total').toFixed(0)}, ${of('transfers', 'rate').toFixed(0)}/s; hot ${of('hot', 'node').toFixed(0)} + ${of('hot', 'total').toFixed(0)}, ${of('hot', 'rate').toFixed(0)}/s; hot / uniform ${(of('hot', 'rate') / of('transfers', 'rate')).toFixed(2)}; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  await admin.end();
} finally {
  await server?.stop();
  await cluster.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
