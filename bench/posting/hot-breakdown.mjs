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
//   npm run build && node bench/posting/hot-breakdown.mjs [--duration 10] [--rounds 2] [--connections 64] [--statements 8]
//
// `--sequence-only transfers|hot` runs that workload alone, round after round (what grows as the
// tables do, issue 23 P2); `--growth` adds per round: WAL (records, full-page images, bytes) per
// 2xx, every statement's blocks (hit, read, dirtied, written) and full-page images per 2xx, the
// posting tables' indexes (blocks per 2xx, size), autovacuum/autoanalyze runs and what the
// autovacuum workers were doing (sampled every 0.5 s). `--warmup S` (3).

import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startCluster } from '../lib/postgres.js';
import { startServer, freePort, serviceNodeFlags } from '../lib/processes.js';
import { seedService } from '../lib/seed.js';
import { runLoad } from '../lib/load.js';
import { transfersWorkload } from '../workloads/transfers.js';
import { hotWorkload } from '../workloads/hot.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const duration = Number(option('duration', 10));
const rounds = Number(option('rounds', 2));
const connections = Number(option('connections', 64));
const topStatements = Number(option('statements', 8));
const sequenceOnly = option('sequence-only', null);
const growth = args.includes('--growth') || sequenceOnly !== null;
const warmup = Number(option('warmup', 3));
// seconds the service stays idle before every other round (0: none): its pools close connections idle for 10 s
const idleEveryOther = Number(option('idle-every-other', 0));

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

const WAL = `SELECT wal_records, wal_fpi, wal_bytes FROM pg_stat_wal`;
const INDEXES = `SELECT s.relname, s.indexrelname, io.idx_blks_hit + io.idx_blks_read AS blks, io.idx_blks_read AS rd,
       pg_relation_size(s.indexrelid) AS size
  FROM pg_stat_user_indexes s JOIN pg_statio_user_indexes io USING (indexrelid)
 WHERE s.relname IN ('balances', 'transactions', 'events', 'analytics_active_wallets', 'analytics_buckets', 'journal_entries', 'webhook_events')`;
const VACUUMS = `SELECT relname, autovacuum_count, autoanalyze_count, n_live_tup, n_dead_tup, n_ins_since_vacuum, pg_relation_size(relid) AS size
  FROM pg_stat_user_tables`;

async function growthSnapshot(admin) {
  const [wal, indexes, vacuums] = await Promise.all([admin.query(WAL), admin.query(INDEXES), admin.query(VACUUMS)]);
  return { wal: wal.rows[0], indexes: indexes.rows, vacuums: vacuums.rows };
}

let sampling = null;
/** What the autovacuum workers are doing now (one client, kept between samples). */
function sampleAutovacuum(url, seen) {
  sampling ??= (async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    return c;
  })();
  sampling
    .then((c) => c.query(`SELECT a.query, p.heap_blks_total, p.phase FROM pg_stat_activity a LEFT JOIN pg_stat_progress_vacuum p USING (pid)
                           WHERE a.backend_type = 'autovacuum worker'`))
    .then(({ rows }) => { for (const r of rows) { const k = `${r.query} ${r.phase ?? ''}`.trim(); seen.set(k, (seen.get(k) ?? 0) + 1); } })
    .catch(() => undefined);
}

async function printGrowth(admin, g0, ok, vacuumSeen) {
  await admin.query('SELECT pg_stat_clear_snapshot()');
  const g1 = await growthSnapshot(admin);
  const per = (a, b, k) => (Number(a[k]) - Number(b[k])) / ok;
  console.log(`   WAL per 2xx: ${per(g1.wal, g0.wal, 'wal_records').toFixed(1)} records, ${per(g1.wal, g0.wal, 'wal_fpi').toFixed(2)} full-page images, ${per(g1.wal, g0.wal, 'wal_bytes').toFixed(0)} bytes`);
  const all = (await admin.query(
    `SELECT toplevel, calls, total_exec_time, shared_blks_hit, shared_blks_read, shared_blks_dirtied, shared_blks_written, wal_fpi, wal_bytes,
            regexp_replace(query, '\\s+', ' ', 'g') AS query FROM pg_stat_statements
      WHERE query NOT ILIKE '%pg_stat%' ORDER BY shared_blks_hit + shared_blks_read DESC LIMIT 14`,
  )).rows;
  console.log('   statements by blocks (per 2xx: µs, calls, hit, read, dirtied, written, FPI; * = nested):');
  for (const x of all)
    console.log(`   ${x.toplevel ? ' ' : '*'}${((x.total_exec_time * 1000) / ok).toFixed(1).padStart(7)} µs ${(x.calls / ok).toFixed(2).padStart(6)} ${(x.shared_blks_hit / ok).toFixed(2).padStart(6)} ${(x.shared_blks_read / ok).toFixed(2).padStart(5)} ${(x.shared_blks_dirtied / ok).toFixed(2).padStart(5)} ${(x.shared_blks_written / ok).toFixed(2).padStart(5)} ${(x.wal_fpi / ok).toFixed(3).padStart(6)}  ${x.query.slice(0, 100)}`);
  console.log('   indexes (blocks per 2xx, of them read; size MB):');
  const lines = [];
  for (const i of g1.indexes) {
    const b = g0.indexes.find((x) => x.indexrelname === i.indexrelname);
    if (!b) continue;
    const blks = per(i, b, 'blks');
    if (blks >= 0.05) lines.push(`${i.indexrelname} ${blks.toFixed(2)}/${per(i, b, 'rd').toFixed(2)} ${(i.size / 1048576).toFixed(1)}`);
  }
  console.log(`     ${lines.join('; ')}`);
  const vac = [];
  for (const t of g1.vacuums) {
    const b = g0.vacuums.find((x) => x.relname === t.relname);
    const av = Number(t.autovacuum_count) - Number(b.autovacuum_count);
    const aa = Number(t.autoanalyze_count) - Number(b.autoanalyze_count);
    if (av || aa) vac.push(`${t.relname} vacuum ${av} analyze ${aa}`);
  }
  const sizes = g1.vacuums.filter((t) => ['transactions', 'events', 'analytics_active_wallets', 'analytics_buckets', 'balances', 'journal_entries', 'webhook_events'].includes(t.relname))
    .map((t) => `${t.relname} ${t.n_live_tup} live ${t.n_dead_tup} dead ${(t.size / 1048576).toFixed(1)} MB`);
  console.log(`   autovacuum runs: ${vac.join(', ') || 'none'}; seen working (0.5 s samples): ${[...vacuumSeen].map(([k, n]) => `${k} ×${n}`).join(', ') || 'none'}`);
  console.log(`   tables: ${sizes.join('; ')}`);
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'hot-breakdown-'));
const cluster = await startCluster(dataDir);
const postmaster = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
let server;
try {
  const url = await cluster.createMigratedDatabase('hot_breakdown');
  // as the shared/perf harness runs its cluster: checkpoints only when asked (before each round)
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`ALTER SYSTEM SET pg_stat_statements.track = 'all'`);
  if (growth) {
    await admin.query(`ALTER SYSTEM SET max_wal_size = '8GB'`);
    await admin.query(`ALTER SYSTEM SET checkpoint_timeout = '1h'`);
  }
  await admin.query(`SELECT pg_reload_conf()`);
  const adminToken = `bench-${randomBytes(12).toString('hex')}`;
  server = await startServer('service', [...serviceNodeFlags(), 'dist/src/main.js'], {
    DATABASE_URL: url, PORT: String(await freePort()), HOST: '127.0.0.1', LEDGER_ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn',
  });
  const fixture = await seedService(server.url, adminToken, { historyTransfers: 2000 });
  await admin.query('VACUUM ANALYZE');
  const workloads = [transfersWorkload(fixture), hotWorkload(fixture)];
  const chosen = sequenceOnly ? workloads.filter((w) => w.name === sequenceOnly) : workloads;
  if (chosen.length === 0) throw new Error(`--sequence-only: transfers or hot, not ${sequenceOnly}`);
  for (const w of chosen) await runLoad({ name: 'service', url: server.url }, w, { connections, duration: warmup }); // warm-up
  const results = { transfers: [], hot: [] };
  for (let r = 0; r < rounds; r++) {
    for (const w of sequenceOnly ? chosen : r % 2 ? [...workloads].reverse() : workloads) {
      const idled = idleEveryOther > 0 && r % 2 === 0 ? idleEveryOther : 0;
      if (idled) await new Promise((resolve) => setTimeout(resolve, idled * 1000));
      await admin.query('CHECKPOINT');
      await admin.query('SELECT pg_stat_statements_reset()');
      await admin.query('SELECT pg_stat_clear_snapshot()');
      const tables0 = (await admin.query(TABLE_COUNTERS)).rows;
      const g0 = growth ? await growthSnapshot(admin) : null;
      const cpu0 = clusterCpu(postmaster);
      const app0 = cpuNs(server.pid);
      const vacuumSeen = new Map();
      const sampler = growth ? setInterval(() => sampleAutovacuum(url, vacuumSeen), 500) : null;
      const load = await runLoad({ name: 'service', url: server.url }, w, { connections, duration });
      if (sampler) clearInterval(sampler);
      const cpu1 = clusterCpu(postmaster);
      const activity = (await admin.query(`SELECT pid, backend_type, query FROM pg_stat_activity`)).rows;
      await admin.query('SELECT pg_stat_clear_snapshot()');
      const tables1 = (await admin.query(TABLE_COUNTERS)).rows;
      const statements = (await admin.query(
        `SELECT calls, total_exec_time, shared_blks_hit, regexp_replace(query, '\\s+', ' ', 'g') AS query FROM pg_stat_statements
          WHERE toplevel AND query NOT ILIKE '%pg_stat%' ORDER BY total_exec_time DESC LIMIT ${topStatements}`,
      )).rows;
      const opened = [...cpu1.keys()].filter((pid) => !cpu0.has(pid) && activity.find((x) => x.pid === pid)?.backend_type === 'client backend').length;
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
      results[w.name].push({ total, node, rate: load.okPerSecond, idled, backends: us['client backend'] ?? 0 });
      console.log(`\n== ${w.name}, round ${r + 1}${idled ? ` (after ${idled} s idle)` : ''}: ${opened} connections opened, ${load.okPerSecond.toFixed(0)}/s, Node ${node.toFixed(0)} µs per 2xx, PostgreSQL ${total.toFixed(0)}: ${Object.entries(us).filter(([, v]) => v >= 0.5).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`);
      for (const [name, t] of Object.entries(tables)) console.log(`   ${name.padEnd(26)} per 2xx: upd ${t.upd.toFixed(2)} (HOT ${t.hot.toFixed(2)}), ins ${t.ins.toFixed(2)}, heap blocks ${t.heap.toFixed(2)}, index blocks ${t.idx.toFixed(2)}`);
      for (const s of statements.map((x) => ({ us: (x.total_exec_time * 1000) / ok, calls: x.calls / ok, blks: x.shared_blks_hit / ok, query: x.query.slice(0, 110) })))
        console.log(`   ${s.us.toFixed(1).padStart(7)} µs ${s.calls.toFixed(2).padStart(6)} calls ${s.blks.toFixed(1).padStart(6)} blks  ${s.query}`);
      if (growth) await printGrowth(admin, g0, ok, vacuumSeen);
    }
  }
  const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
  const of = (name, key) => mean(results[name].map((x) => x[key]));
  if (sequenceOnly) {
    console.log(`\n${sequenceOnly}, PostgreSQL µs per 2xx by round (client backends): ${results[sequenceOnly].map((x) => `${x.total.toFixed(0)} (${x.backends.toFixed(0)})${x.idled ? ' idle' : ''}`).join(', ')}; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  } else console.log(`\nmeans of ${rounds} rounds, µs per 2xx (Node + PostgreSQL) and 2xx/s: transfers ${of('transfers', 'node').toFixed(0)} + ${of('transfers', 'total').toFixed(0)}, ${of('transfers', 'rate').toFixed(0)}/s; hot ${of('hot', 'node').toFixed(0)} + ${of('hot', 'total').toFixed(0)}, ${of('hot', 'rate').toFixed(0)}/s; hot / uniform ${(of('hot', 'rate') / of('transfers', 'rate')).toFixed(2)}; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  await admin.end();
  if (sampling) await (await sampling).end();
} finally {
  await server?.stop();
  await cluster.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
