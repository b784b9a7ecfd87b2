// Spending and earning limits (CONTRACT §19), in one run:
// 1. transfers/s with 3 project-wide limits applying to every wallet (never reached) against the
//    same service without limits, rounds alternated so machine drift cancels out (goal ≥ 0.9×);
//    plus the SQL statements one POST /transactions costs each way (x-sql-statements);
// 2. the limit check's cost, EXPLAIN (ANALYZE, BUFFERS), for a wallet with 10 and with 100,000
//    movements inside the window (seeded with SQL): the same buffers either way (no scan). The
//    Buffers of `SELECT limits_check(...)` include the statements the function runs inside.
// The machine this ran on is shared (other helpers' test suites): transfers/s figures are noisy.
//   node bench/limits.js [--duration 10] [--rounds 2] [--connections 32] [--out bench/results/...]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startCluster, harnessPool } from './lib/postgres.js';
import { seedService } from './lib/seed.js';
import { startServer, freePort, serviceNodeFlags } from './lib/processes.js';
import { call } from './lib/http.js';
import { runLoad } from './lib/load.js';
import { transfersWorkload } from './workloads/transfers.js';

const { values: opts } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
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
  let limitIds = [];
  const withLimits = async (on) => {
    if (on) {
      for (const limit of LIMITS) limitIds.push((await call(service.url, 'POST', '/limits', { headers: auth, body: { projectId: fixture.projectId, currency: fixture.currency, ...limit } })).json.limit.id);
    } else {
      for (const id of limitIds) await call(service.url, 'DELETE', `/limits/${id}`, { headers: auth });
      limitIds = [];
    }
  };
  const statements = async () => {
    const [from, to] = fixture.customers;
    const response = await fetch(`${service.url}/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ amount: 0.01, currency: fixture.currency, from: from.id, to: to.id, projectId: fixture.projectId }),
    });
    await response.text();
    return response.headers.get('x-sql-statements');
  };

  say(`\n== transfers/s, ${opts.rounds} rounds of ${opts.duration} s per arm, ${opts.connections} connections, 1,000 customers`);
  say(`statements per POST /transactions: without limits ${await statements()}`);
  await withLimits(true);
  say(`statements per POST /transactions: with 3 limits ${await statements()}`);
  await withLimits(false);
  const runs = { none: [], limits: [] };
  for (let round = 0; round < Number(opts.rounds); round += 1) {
    for (const arm of round % 2 ? ['limits', 'none'] : ['none', 'limits']) {
      await withLimits(arm === 'limits');
      const result = await runLoad(target, workload, { connections: Number(opts.connections), duration: Number(opts.duration), checkBody: false });
      runs[arm].push(result.okPerSecond);
      say(`round ${round + 1} ${arm.padEnd(6)} ${result.okPerSecond.toFixed(0)} transfers/s (p50 ${result.p50} ms, p99 ${result.p99} ms, non-2xx ${result.requests - Math.round(result.okPerSecond * Number(opts.duration))})`);
      await withLimits(false);
    }
  }
  const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
  say(`transfers/s: without limits ${mean(runs.none).toFixed(0)}, with 3 limits ${mean(runs.limits).toFixed(0)}: ratio ${(mean(runs.limits) / mean(runs.none)).toFixed(3)} (goal >= 0.9)`);
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
  for (const [name, wallet] of [['10 movements', few], ['100,000 movements', many]]) {
    const check = `SELECT limits_check(${fixture.projectId}, '${assetId}', '${wallet}', '${receiver}', 1, true, true, 0, clock_timestamp()::timestamptz(3))`;
    const used = `SELECT limits_used(${fixture.projectId}, '${wallet}', '${assetId}', 'debit', 86400, clock_timestamp()::timestamptz(3))`;
    // as limits_used runs it: the window's start is a value (a PL/pgSQL variable), so it bounds the index descent
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
    for (const [label, sql] of [['limits_check (the whole check, both sides)', check], ['the window-start lookup inside limits_used', window]]) {
      const plan = (await pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF) ${sql}`)).rows.map((r) => r['QUERY PLAN']);
      say(`${label}:`);
      for (const line of plan) say(`    ${line}`);
      buffers[`${name} / ${label}`] = plan.filter((l) => /Buffers:/.test(l))[0]?.trim() ?? '(none)';
    }
  }
  say('\n== buffers, first Buffers line of each plan');
  for (const [k, v] of Object.entries(buffers)) say(`${k}: ${v}`);
  await pool.end();
} finally {
  if (service) await service.stop();
  await cluster.stop();
  rmSync(tmp, { recursive: true, force: true });
}
if (opts.out) writeFileSync(opts.out, lines.join('\n') + '\n');
