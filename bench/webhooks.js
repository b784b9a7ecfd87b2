// Outbound webhooks (CONTRACT §16): how many deliveries per second the service makes to a local receiver.
//
//   npm run build && ./node_modules/.bin/node bench/webhooks.js [--events 20000] [--endpoints 1] [--concurrency 32] [--rounds 2]
//
// One throw-away embedded PostgreSQL (bench/lib/postgres.js) and the service as a child process
// (`LEDGER_WEBHOOK_ALLOW_PRIVATE=true`, `LEDGER_WEBHOOK_CONCURRENCY` = --concurrency). The
// receiver is a node:http server in this process answering 204 at once, so the figure is the
// service's (and PostgreSQL's) cost, not a slow receiver's. Each round:
//
//   backlog    `--events` events committed in one transaction on a project with `--endpoints`
//              endpoints (events × endpoints deliveries), then numbered: deliveries per second
//              from the numbering's commit until the receiver has them all, and until every
//              attempt is recorded in webhook_deliveries.
//   latency    then single events committed one after another (200, 20 ms apart), with nothing
//              else queued: commit-to-receiver latency p50 / p99 (the first attempt must come
//              within 5 s of the commit).

import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { call } from './lib/http.js';
import { harnessPool, startCluster } from './lib/postgres.js';
import { freePort, startServer } from './lib/processes.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const EVENTS = option('events', 20_000);
const ENDPOINTS = option('endpoints', 1);
const CONCURRENCY = option('concurrency', 32);
const ROUNDS = option('rounds', 2);
const LATENCY_SAMPLES = 200;
const ADMIN = 'bench-webhooks-admin-token';

const log = (...line) => console.log(...line);
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The local receiver: counts requests and tells waiters; remembers when each webhook-id first arrived. */
function startReceiver() {
  const state = { count: 0, firstSeen: new Map(), waiters: new Set() };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(204).end();
      state.count += 1;
      const id = req.headers['webhook-id'];
      if (!state.firstSeen.has(id)) state.firstSeen.set(id, performance.timeOrigin + performance.now());
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
    for (let i = 0; i < ENDPOINTS; i++) await api('POST', '/webhook-endpoints', { projectId, url: receiver.url });
    log(`webhooks bench: ${EVENTS} events × ${ENDPOINTS} endpoint(s), LEDGER_WEBHOOK_CONCURRENCY=${CONCURRENCY}, ${ROUNDS} rounds; receiver answers 204 at once`);

    const recorded = async () => Number((await sql.query(`SELECT count(*) AS n FROM webhook_deliveries`)).rows[0].n);
    const rates = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const before = receiver.state.count;
      const recordedBefore = await recorded();
      const wanted = EVENTS * ENDPOINTS;
      await sql.query(
        `INSERT INTO events (project_id, type, subject_id, created_at) SELECT $1, 'transaction.posted', gen_random_uuid(), now() FROM generate_series(1, $2)`,
        [projectId, EVENTS],
      );
      const started = performance.now();
      await sql.query(`SELECT ledger_sequence_events($1)`, [EVENTS * 2]);
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
      const { rows } = await sql.query(`INSERT INTO events (project_id, type, subject_id, created_at) VALUES ($1, 'transaction.posted', gen_random_uuid(), now()) RETURNING id`, [projectId]);
      const committed = performance.timeOrigin + performance.now();
      // what the events core's sequencer does after each commit (here, by hand, right away)
      await sql.query(`SELECT ledger_sequence_events(1000)`);
      const id = rows[0].id;
      await receiver.until((s) => s.firstSeen.has(id));
      latencies.push(receiver.state.firstSeen.get(id) - committed);
      await sleep(20);
    }
    log(`  latency, event commit -> receiver (incl. numbering): p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms (${LATENCY_SAMPLES} single events)`);
    log(`webhook deliveries per second (backlog, median of rounds): ${percentile(rates, 0.5).toFixed(0)}`);
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
