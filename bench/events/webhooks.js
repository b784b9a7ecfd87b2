// Outbound webhooks (CONTRACT §16): how many deliveries per second the service makes to a local receiver.
//
//   npm run build && ./node_modules/.bin/node bench/events/webhooks.js [--events 20000] [--endpoints 1] [--concurrency 32] [--rounds 3]
//
// One throw-away embedded PostgreSQL (bench/lib/postgres.js) and the service as a child process
// (`LEDGER_WEBHOOK_ALLOW_PRIVATE=true`, `LEDGER_WEBHOOK_CONCURRENCY` = --concurrency). The
// receiver is a node:http server in this process answering 204 at once, so the figure is the
// service's (and PostgreSQL's) cost, not a slow receiver's. Each round:
//
//   backlog    `--events` transfers posted (POST /transactions/batch, 100 legs each) on a project
//              with `--endpoints` endpoints (events × endpoints deliveries) while the harness
//              holds the fan-out's row lock, so that they wait as a backlog; then the lock is
//              released: deliveries per second from the release until the receiver has them all,
//              and until every attempt is recorded in webhook_deliveries.
//   latency    then single transfers (POST /transactions) one after another (200, 20 ms apart),
//              nothing else queued: latency from the 201 (the commit) to the receiver, p50 / p99
//              (the contract: the first attempt within 5 s of the commit).

import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { call } from '../lib/http.js';
import { harnessPool, startCluster } from '../lib/postgres.js';
import { freePort, startServer } from '../lib/processes.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const EVENTS = option('events', 20_000);
const ENDPOINTS = option('endpoints', 1);
const CONCURRENCY = option('concurrency', 32);
const ROUNDS = option('rounds', 3);
const LATENCY_SAMPLES = 200;
const ADMIN = 'bench-webhooks-admin-token';

const log = (...line) => console.log(...line);
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The local receiver: counts requests, notes when the last one arrived, and tells waiters. */
function startReceiver() {
  const state = { count: 0, lastAt: 0, waiters: new Set() };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(204).end();
      state.count += 1;
      state.lastAt = performance.timeOrigin + performance.now();
      for (const wake of state.waiters) wake();
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const until = (condition) =>
        new Promise((done) => {
          const check = () => {
            if (!condition(state)) return;
            state.waiters.delete(check);
            done();
          };
          state.waiters.add(check);
          check();
        });
      resolve({ url: `http://127.0.0.1:${server.address().port}/hooks`, state, until, close: () => (server.closeAllConnections(), new Promise((r) => server.close(r))) });
    });
  });
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-webhooks-'));
  const cluster = await startCluster(dataDir);
  const receiver = await startReceiver();
  let service;
  try {
    const url = await cluster.createMigratedDatabase('bench_webhooks');
    const sql = harnessPool(url, 4);
    const port = await freePort();
    service = await startServer('service', ['dist/src/main.js'], {
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      LEDGER_ADMIN_TOKEN: ADMIN,
      LOG_LEVEL: 'warn',
      LEDGER_WEBHOOK_ALLOW_PRIVATE: 'true',
      LEDGER_WEBHOOK_CONCURRENCY: String(CONCURRENCY),
    });
    const apiKey = (await call(service.url, 'POST', '/admin/api-keys', { headers: { admin_token: ADMIN }, body: { owner: 'bench', plan_code: 'enterprise' } })).json.api_key;
    const api = (method, p, body) => call(service.url, method, p, { headers: { api_key: apiKey }, body });
    const projectId = (await api('POST', '/projects', { name: 'Webhook bench' })).json.id;
    await api('POST', '/assets', { name: 'Points', symbol: 'PTS', fractions: 2, projectId });
    const system = (await api('POST', '/wallets/create/system', { projectId })).json;
    const customer = (await api('POST', '/wallets/create/customer', { projectId })).json;
    await api('POST', '/transactions/seed', { amount: 1_000_000_000, currency: 'PTS', projectId, to: system.id });
    for (let i = 0; i < ENDPOINTS; i++) await api('POST', '/webhook-endpoints', { projectId, url: receiver.url });
    log(`webhooks bench: ${EVENTS} events × ${ENDPOINTS} endpoint(s), LEDGER_WEBHOOK_CONCURRENCY=${CONCURRENCY}, ${ROUNDS} rounds; receiver answers 204 at once`);

    const recorded = async () => Number((await sql.query(`SELECT count(*) AS n FROM webhook_deliveries`)).rows[0].n);
    const rates = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const before = receiver.state.count;
      const recordedBefore = await recorded();
      const wanted = EVENTS * ENDPOINTS;
      // the backlog: postings commit and are numbered, but no job is made until the lock goes
      const lock = await sql.connect();
      await lock.query('BEGIN');
      await lock.query('SELECT 1 FROM webhook_fanout FOR UPDATE');
      for (let done = 0; done < EVENTS; done += 100) {
        const legs = Array.from({ length: Math.min(100, EVENTS - done) }, () => ({ amount: 0.01, currency: 'PTS', from: system.id, to: customer.id }));
        await api('POST', '/transactions/batch', { projectId, transfers: legs });
      }
      while (Number((await sql.query(`SELECT count(*) AS n FROM events WHERE stream_pos IS NULL`)).rows[0].n) > 0) await sleep(20);
      const started = performance.now();
      await lock.query('COMMIT');
      lock.release();
      await receiver.until((s) => s.count - before >= wanted);
      const receivedMs = performance.now() - started;
      while ((await recorded()) - recordedBefore < wanted) await sleep(20);
      const recordedMs = performance.now() - started;
      const rate = wanted / (receivedMs / 1000);
      rates.push(rate);
      log(`  round ${round} backlog: ${wanted} deliveries received in ${(receivedMs / 1000).toFixed(2)} s = ${rate.toFixed(0)}/s; all recorded after ${(recordedMs / 1000).toFixed(2)} s = ${(wanted / (recordedMs / 1000)).toFixed(0)}/s`);
    }

    const latencies = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const before = receiver.state.count;
      await api('POST', '/transactions', { amount: 0.01, currency: 'PTS', from: system.id, to: customer.id, projectId });
      const committed = performance.timeOrigin + performance.now();
      await receiver.until((s) => s.count - before >= ENDPOINTS);
      latencies.push(receiver.state.lastAt - committed);
      await sleep(20);
    }
    log(`  latency, 201 of a transfer -> receiver: p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms (${LATENCY_SAMPLES} single transfers)`);
    log(`webhook deliveries per second (backlog): median ${median(rates).toFixed(0)}, rounds ${rates.map((r) => r.toFixed(0)).join(' / ')}`);
    // where the delivery worker's database time went (pg_stat_statements, whole run; the postings that made the events left out)
    const top = await sql.query(
      `SELECT calls, round(total_exec_time)::int AS total_ms, round(mean_exec_time::numeric, 2) AS mean_ms, regexp_replace(left(query, 110), '\\s+', ' ', 'g') AS query
         FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND (query ~ 'webhook_(jobs|fanout|deliveries)' OR query ~ 'e.id = ANY')
        ORDER BY total_exec_time DESC LIMIT 8`,
    ).catch(() => ({ rows: [] }));
    for (const row of top.rows) log(`  db: ${String(row.total_ms).padStart(7)} ms total, ${String(row.calls).padStart(7)} calls, ${String(row.mean_ms).padStart(7)} ms mean  ${row.query}`);
    if (service.problems.count) log(`service logged ${service.problems.count} warnings or errors; first: ${service.problems.first.join(' | ')}`);
    await sql.end();
  } finally {
    await service?.stop();
    await receiver.close();
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
