// Spending and earning limits (CONTRACT §19) and balance monitors (§20), in one run (~2 min on a
// quiet machine):
// 1. transfers/s in three arms against the same service, rounds alternated so machine drift
//    cancels out: no limit and no monitor; 3 project-wide limits applying to every wallet (never
//    reached, so the check runs in full on every posting); 100 project-wide monitors (goal ≥ 0.9×
//    the first arm for both). The monitors' thresholds are spread over the balances a wallet can
//    have (0–9,900 PTS, both fields, every operator) and none lies near the 1,000 PTS every wallet
//    starts at, so a posting's before→after interval (0.01 PTS wide) almost never contains one:
//    the index probe finds none, the case every posting but a crossing is in (its plan and
//    buffers are printed, and the crossings the arm wrote are counted);
//    Each run also measures the CPU it cost (/proc: the service process, and PostgreSQL's
//    postmaster with all its children) per 2xx: on a machine shared with other work, CPU per
//    posting is the robust A/B figure (the wall-clock rates move with the neighbours' load), and
//    none/arm of it is the transfers/s ratio a CPU-bound machine would see;
// 2. the statements one POST /transactions costs in each arm, counted by pg_stat_statements with
//    `track = all` (the statements inside the posting routines too): with no limit and no
//    monitor, none of them touches limits or monitors; with 100 monitors, those that do are listed
//    (ledger_move judges both sides in one statement);
// 3. the limit check's cost, EXPLAIN (ANALYZE, BUFFERS), for a wallet with 10 and with 100,000
//    movements inside the window (seeded with SQL): the same buffers either way (no scan). The
//    Buffers of `SELECT limits_check(...)` include the statements the function runs inside.
// The machine this runs on is often shared: compare the ratios, not the transfers/s.
//   node bench/posting/limits.js [--duration 6] [--rounds 3] [--connections 32] [--out bench/results/...]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startCluster, harnessPool } from '../lib/postgres.js';
import { seedService } from '../lib/seed.js';
import { startServer, freePort, serviceNodeFlags } from '../lib/processes.js';
import { call, parallel } from '../lib/http.js';
import { runLoad } from '../lib/load.js';
import { transfersWorkload } from '../workloads/transfers.js';
import { clusterCpuMs, processCpuMs } from '../lib/cpu.js';

const { values: opts } = parseArgs({
  options: {
    duration: { type: 'string', default: '6' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    out: { type: 'string' },
  },
});
const lines = [];
const say = (line = '') => {
  console.log(line);
  lines.push(line);
};

const tmp = mkdtempSync(path.join(os.tmpdir(), 'ledger-limits-'));
const cluster = await startCluster(tmp);
let service;
try {
  const url = await cluster.createMigratedDatabase('limits');
  const pool = harnessPool(url);
  await pool.query(`ALTER DATABASE limits SET pg_stat_statements.track = 'all'`);
  const adminToken = 'limits-admin-token';
  service = await startServer('service', [...serviceNodeFlags(), 'dist/src/main.js'], {
    DATABASE_URL: url, PORT: String(await freePort()), HOST: '127.0.0.1', LEDGER_ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn', LEDGER_EXPOSE_STATEMENT_COUNT: 'true',
    // seeding 1,000 wallets on a busy machine may pass the 5 s default; the runs never come near it
    LEDGER_STATEMENT_TIMEOUT_MS: '60000',
  });
  const fixture = await seedService(service.url, adminToken, { log: say });
  const auth = { api_key: fixture.apiKey };
  const workload = transfersWorkload(fixture);
  const target = { name: 'service', url: service.url };

  // 3 limits that apply to every customer wallet and never refuse: the check runs in full on every posting
  const LIMITS = [
    { direction: 'debit', amount: 1_000_000_000, windowSeconds: 3600 },
    { direction: 'debit', amount: 1_000_000_000, windowSeconds: 86_400 },
    { direction: 'credit', amount: 1_000_000_000, windowSeconds: 86_400 },
  ];
  // 100 project-wide monitors, thresholds spread from 37.5 to 9,937.5 PTS (never near 1,000)
  const OPERATORS = ['lt', 'lte', 'gt', 'gte'];
  const MONITORS = Array.from({ length: 100 }, (_, i) => ({ field: i % 2 ? 'available' : 'balance', operator: OPERATORS[Math.floor(i / 2) % 4], value: 37.5 + 100 * i }));
  let made = [];
  const arms = {
    none: { label: 'no limit, no monitor', create: async () => [] },
    limits: {
      label: '3 limits',
      create: () => parallel(LIMITS.length, 4, async (i) => ['/limits', (await call(service.url, 'POST', '/limits', { headers: auth, body: { projectId: fixture.projectId, currency: fixture.currency, ...LIMITS[i] } })).json.limit.id]),
    },
    monitors: {
      label: '100 monitors',
      create: () => parallel(MONITORS.length, 8, async (i) => ['/balance-monitors', (await call(service.url, 'POST', '/balance-monitors', { headers: auth, body: { projectId: fixture.projectId, currency: fixture.currency, ...MONITORS[i] } })).json.monitor.id]),
    },
  };
  const arm = async (name) => {
    await parallel(made.length, 8, (i) => call(service.url, 'DELETE', `${made[i][0]}/${made[i][1]}`, { headers: auth }));
    made = name ? await arms[name].create() : [];
  };
  const post = async () => {
    const [from, to] = [fixture.customers[Math.floor(Math.random() * 500)], fixture.customers[500 + Math.floor(Math.random() * 500)]];
    const response = await fetch(`${service.url}/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ amount: 0.01, currency: fixture.currency, from: from.id, to: to.id, projectId: fixture.projectId }),
    });
    await response.text();
    if (response.status !== 201) throw new Error(`POST /transactions: ${response.status}`);
    return response.headers.get('x-sql-statements');
  };
  // Every statement a posting runs, nested ones included (the service's sessions read track = all
  // from the database's settings when they connect).
  const statementsPerPosting = async () => {
    const n = 20;
    await post(); // warm
    await pool.query('SELECT pg_stat_statements_reset()');
    let top;
    for (let i = 0; i < n; i += 1) top = await post();
    const { rows } = await pool.query(
      `SELECT calls, regexp_replace(query, '\\s+', ' ', 'g') AS query FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT ILIKE '%pg_stat_statements%'`,
    );
    // background work (the event sequencer's ticks, the call counter's flushes) runs fewer times than 20 in this short span
    const own = rows.filter((r) => Number(r.calls) >= n);
    const nested = own.reduce((s, r) => s + Number(r.calls), 0) / n;
    const touching = own.filter((r) => /limits_check|limits_applying|limits_used|\blimits\b|balance_monitors|monitors_\w+|balance_crossings/i.test(r.query));
    return { top, nested, touching };
  };

  say(`\n== statements per POST /transactions (x-sql-statements: sent by the service; all: pg_stat_statements, track = all, the routines' own statements included; 20 postings)`);
  const counted = {};
  for (const name of Object.keys(arms)) {
    await arm(name);
    counted[name] = await statementsPerPosting();
    say(`${arms[name].label.padEnd(22)} sent ${counted[name].top}, all ${counted[name].nested.toFixed(1)}`);
  }
  say(`statements touching limits or monitors with neither defined (ledger_move reads limit_count and monitors with the asset row it read before limits existed): ${counted.none.touching.length}${counted.none.touching.map((r) => `\n    ${r.calls} × ${r.query.slice(0, 160)}`).join('')}`);
  const monitorStatements = counted.monitors.touching.filter((r) => /monitors|balance_crossings/i.test(r.query));
  say(`statements touching monitors with 100 monitors, per posting (calls / 20 postings): ${monitorStatements.length}${monitorStatements.map((r) => `\n    ${(Number(r.calls) / 20).toFixed(1)} × ${r.query.slice(0, 200)}`).join('')}`);

  const crossingsBefore = Number((await pool.query('SELECT count(*) FROM balance_crossings')).rows[0].count);
  say(`\n== transfers/s, ${opts.rounds} rounds of ${opts.duration} s per arm, ${opts.connections} connections, 1,000 customers`);
  const runs = { none: [], limits: [], monitors: [] };
  const cpu = { none: [], limits: [], monitors: [] }; // ms per 2xx: [service, PostgreSQL]
  const names = Object.keys(runs);
  for (let round = 0; round < Number(opts.rounds); round += 1) {
    // each round in another order (a Latin square over 3 rounds)
    for (let k = 0; k < names.length; k += 1) {
      const name = names[(k + round) % names.length];
      await arm(name);
      const cpuBefore = [processCpuMs(service.pid), clusterCpuMs(tmp)];
      const result = await runLoad(target, workload, { connections: Number(opts.connections), duration: Number(opts.duration), checkBody: false });
      const cpuRun = [processCpuMs(service.pid) - cpuBefore[0], clusterCpuMs(tmp) - cpuBefore[1]].map((ms) => ms / result.ok);
      runs[name].push(result.okPerSecond);
      cpu[name].push(cpuRun);
      say(`round ${round + 1} ${arms[name].label.padEnd(22)} ${result.okPerSecond.toFixed(0)} transfers/s (p50 ${result.p50} ms, p99 ${result.p99} ms, non-2xx ${result.requests - Math.round(result.okPerSecond * Number(opts.duration))}), cpu ms/transfer service ${cpuRun[0].toFixed(3)} pg ${cpuRun[1].toFixed(3)}`);
    }
  }
  await arm(null);
  const crossings = Number((await pool.query('SELECT count(*) FROM balance_crossings')).rows[0].count) - crossingsBefore;
  const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const ratios = {
    limits: mean(runs.limits) / mean(runs.none),
    monitors: mean(runs.monitors) / mean(runs.none),
  };
  say(`transfers/s: ${names.map((n) => `${arms[n].label} ${mean(runs[n]).toFixed(0)}`).join(', ')}`);
  const cpuOf = (n) => mean(cpu[n].map(([app, pg]) => app + pg));
  say(`cpu ms/transfer (service + PostgreSQL): ${names.map((n) => `${arms[n].label} ${cpuOf(n).toFixed(3)} (pg ${mean(cpu[n].map(([, pg]) => pg)).toFixed(3)})`).join(', ')}`);
  say(`per round, transfers/s arm/none: ${['limits', 'monitors'].map((n) => `${arms[n].label} ${runs[n].map((x, i) => (x / runs.none[i]).toFixed(2)).join(', ')}`).join('; ')}`);
  say(`crossings written during the runs: ${crossings} (out of ${Math.round(mean(runs.monitors) * Number(opts.duration) * Number(opts.rounds))} transfers in the monitors arm)`);

  // The probe a posting makes with 100 project-wide monitors: one wallet's value before and after a 0.01 debit.
  await arm('monitors');
  const probed = fixture.customers[20].id;
  const [{ asset_id: probeAsset, amount: probeAmount }] = (await pool.query(`SELECT asset_id, amount::bigint FROM balances WHERE wallet_id = $1`, [probed])).rows;
  const probe = `SELECT o.id FROM balance_monitors o
     WHERE o.wallet_id IS NULL AND o.project_id = ${fixture.projectId} AND o.asset_id = '${probeAsset}' AND o.field = 'balance'
       AND o.value BETWEEN ${BigInt(probeAmount) - 1n} AND ${probeAmount}`;
  const probePlan = (await pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF) ${probe}`)).rows.map((r) => r['QUERY PLAN']);
  say(`\n== the project-wide probe inside monitors_crossed (ledger_move's one monitor statement) for a posting (balance ${probeAmount} → ${BigInt(probeAmount) - 1n} minor units), 100 monitors:`);
  for (const line of probePlan) say(`    ${line}`);
  await arm(null);
  await service.stop();
  service = undefined;

  // 2. The check's cost against the number of movements inside the window.
  const [{ asset_id: assetId }] = (await pool.query(`SELECT id AS asset_id FROM assets WHERE project_id = $1`, [fixture.projectId])).rows;
  const few = fixture.customers[10].id;
  const many = fixture.customers[11].id;
  const receiver = fixture.customers[12].id;
  await pool.query(`INSERT INTO limits (project_id, wallet_id, asset_id, direction, amount, window_seconds) VALUES ($1, $2, $4, 'debit', 1e15, 86400), ($1, $3, $4, 'debit', 1e15, 86400)`, [fixture.projectId, few, many, assetId]);
  await pool.query(`UPDATE assets SET limit_count = limit_count + 2 WHERE id = $1`, [assetId]);
  const seedMovements = async (wallet, n) => {
    // n transfers of 1 minor unit from `wallet`, dated over the last hour in order, with the running totals the routine would write
    await pool.query(
      `WITH b AS (SELECT amount, debited, tx_count FROM balances WHERE wallet_id = $1 AND asset_id = $3)
       INSERT INTO transactions (project_id, asset_id, kind, from_wallet_id, to_wallet_id, amount, from_balance, to_balance, from_count, to_count, from_debited, to_credited, created_at)
       SELECT $4, $3, 'transfer', $1, $2, 1, b.amount, 1, b.tx_count + i, 1, b.debited + i, 1, now() - interval '1 hour' + (i * interval '1 hour' / ($5 + 1))
         FROM b, generate_series(1, $5) AS i`,
      [wallet, receiver, assetId, fixture.projectId, n],
    );
    await pool.query(`UPDATE balances SET debited = debited + $3, tx_count = tx_count + $3 WHERE wallet_id = $1 AND asset_id = $2`, [wallet, assetId, n]);
  };
  await seedMovements(few, 10);
  await seedMovements(many, 100_000);
  await pool.query('ANALYZE transactions');
  say(`\n== the limit check, a wallet with 10 vs 100,000 movements inside its 1-day window (seeded by SQL)`);
  const buffers = {};
  const client = await pool.connect();
  for (const [name, wallet] of [['10 movements', few], ['100,000 movements', many]]) {
    const check = `SELECT limits_check(${fixture.projectId}, '${assetId}', '${wallet}', '${receiver}', 1, true, true, 0, clock_timestamp()::timestamptz(3))`;
    const used = `SELECT limits_used(${fixture.projectId}, '${wallet}', '${assetId}', 'debit', 86400, clock_timestamp()::timestamptz(3))`;
    // as limits_check runs it: the window's start is a value (a PL/pgSQL variable), so it bounds the index descent
    const start = new Date(Date.now() - 86_400_000).toISOString();
    const window = `SELECT t.from_debited FROM transactions t WHERE t.from_wallet_id = '${wallet}' AND t.asset_id = '${assetId}' AND t.created_at <= '${start}'::timestamptz AND t.created_at > '-infinity' ORDER BY t.created_at DESC, t.seq DESC LIMIT 1`;
    await pool.query(check); // warm
    const timings = [];
    for (let i = 0; i < 50; i += 1) {
      const started = process.hrtime.bigint();
      await pool.query(check);
      timings.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    timings.sort((a, b) => a - b);
    const [{ limits_used: value }] = (await pool.query(used)).rows;
    say(`\n-- ${name}: used ${value}, limits_check median ${timings[25].toFixed(3)} ms over 50 calls`);
    for (const [label, sql] of [['limits_check (the whole check, both sides)', check], ['the window-start lookup inside limits_check', window]]) {
      // twice on one session, the second printed: the first also reads the catalog to plan the function's statements
      const explain = () => client.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF) ${sql}`);
      await explain();
      const plan = (await explain()).rows.map((r) => r['QUERY PLAN']);
      say(`${label}:`);
      for (const line of plan) say(`    ${line}`);
      buffers[`${name} / ${label}`] = plan.filter((l) => /Buffers:/.test(l))[0]?.trim() ?? '(none)';
    }
  }
  client.release();
  say('\n== buffers, first Buffers line of each plan');
  for (const [k, v] of Object.entries(buffers)) say(`${k}: ${v}`);
  const checkBuffers = Object.entries(buffers).filter(([k]) => k.includes('the whole check')).map(([, v]) => v);
  say('\n== ratios (goal >= 0.9 for both transfers/s ratios; the same buffers with 10 and 100,000 movements)');
  say(`transfers/s with 3 limits / without:     ${ratios.limits.toFixed(3)}`);
  say(`transfers/s with 100 monitors / without: ${ratios.monitors.toFixed(3)}`);
  say(`cpu per transfer without / with 3 limits:     ${(cpuOf('none') / cpuOf('limits')).toFixed(3)}`);
  say(`cpu per transfer without / with 100 monitors: ${(cpuOf('none') / cpuOf('monitors')).toFixed(3)}`);
  say(`limits_check buffers, 10 vs 100,000 movements in the window: ${checkBuffers.join(' vs ')} (${checkBuffers[0] === checkBuffers[1] ? 'the same' : 'DIFFERENT'})`);
  await pool.end();
} finally {
  if (service) await service.stop();
  await cluster.stop();
  rmSync(tmp, { recursive: true, force: true });
}
if (opts.out) writeFileSync(opts.out, lines.join('\n') + '\n');
