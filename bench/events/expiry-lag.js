// hold.expired lag (CONTRACT §16, clarified with part three): 10,000 holds falling due in the same
// second, swept by one or two service instances (default settings: sweep every 1 s, 500 wallets
// per round), with a ledgerEvents subscriber on each instance.
//
//   npm run build && ./node_modules/.bin/node bench/events/expiry-lag.js [--instances 1,2] [--wallets 500] [--holds 10000]
//
// One throw-away embedded PostgreSQL (bench/lib/postgres.js) with track_commit_timestamp on (set
// before the services start), the services as child processes. The holds are made through
// ledger_post (as the posting queue sends them) with a one-hour expiry, then their expires_at set
// to one second 3 s ahead. Reported per run:
//   write lag    commit time of the round that released the hold (pg_xact_commit_timestamp of the
//                hold row) − its expires_at: p50, p99, max (the contract: within 60 s);
//   delivery     a subscriber's receipt of hold.expired − that commit time: p50, p99 (§16: 1 s);
//   each once    hold.expired events per hold (must be exactly 1).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { processCpuSplitMs } from '../lib/cpu.js';
import { call, parallel } from '../lib/http.js';
import { harnessPool, startCluster } from '../lib/postgres.js';
import { freePort, startServer } from '../lib/processes.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const INSTANCES = option('instances', '1,2').split(',').map(Number);
const WALLETS = Number(option('wallets', 500));
const HOLDS = Number(option('holds', 10_000));
const ADMIN = 'bench-expiry-lag-admin-token';
const log = (...line) => console.log(...line);
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const LEDGER_POST = `ledger_post($1::text[], $2::int[], $3::uuid[], $4::uuid[], $5::uuid[], $6::bigint[], $7::text[], $8::int[], $9::uuid[], $10::text[], $11::json[], $12::int[])`;
const postings = (kind, projectId, assetId, from, to, amounts, expiresIn = null) => {
  const n = to.length;
  const none = Array(n).fill(null);
  return [Array(n).fill(kind), Array(n).fill(projectId), Array(n).fill(assetId), from, to, amounts.map(String), none, none, none, none, none, Array(n).fill(expiresIn)];
};

async function run(cluster, instances) {
  const url = await cluster.createMigratedDatabase(`lag_${instances}_${Date.now()}`);
  const sql = harnessPool(url, 4);
  const services = [];
  try {
    for (let i = 0; i < instances; i++) {
      services.push(await startServer(`service-${i}`, ['dist/src/main.js'], { DATABASE_URL: url, PORT: String(await freePort()), HOST: '127.0.0.1', LEDGER_ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'warn' }));
    }
    const base = services[0].url;
    const apiKey = (await call(base, 'POST', '/admin/api-keys', { headers: { admin_token: ADMIN }, body: { owner: 'bench', plan_code: 'enterprise' } })).json.api_key;
    const api = (method, p, body) => call(base, method, p, { headers: { api_key: apiKey }, body });
    const projectId = (await api('POST', '/projects', { name: 'lag' })).json.id;
    const asset = (await api('POST', '/assets', { name: 'Points', symbol: 'PTS', fractions: 2, projectId })).json;
    const system = (await api('POST', '/wallets/create/system', { projectId })).json;
    await api('POST', '/transactions/seed', { amount: 100_000_000, currency: 'PTS', projectId, to: system.id });
    const wallets = (await parallel(WALLETS, 16, async () => (await api('POST', '/wallets/create/customer', { projectId })).json)).map((w) => w.id);
    const perWallet = Math.ceil(HOLDS / WALLETS);
    await sql.query(`SELECT count(*) FROM ${LEDGER_POST}`, postings('transfer', projectId, asset.id, Array(WALLETS).fill(system.id), wallets, Array(WALLETS).fill(perWallet * 100)));
    const from = Array.from({ length: HOLDS }, (_, i) => wallets[i % WALLETS]);
    for (let i = 0; i < HOLDS; i += 2_000) {
      const slice = from.slice(i, i + 2_000);
      const { rows } = await sql.query(`SELECT count(*) FILTER (WHERE code = 'ok')::int AS ok FROM ${LEDGER_POST}`, postings('hold', projectId, asset.id, slice, Array(slice.length).fill(system.id), Array(slice.length).fill(1), 3600));
      if (rows[0].ok !== slice.length) throw new Error(`holds: ${rows[0].ok} of ${slice.length} made`);
    }

    // a subscriber on each instance, every hold.expired with the instant it arrived
    const received = new Map(); // hold id → [arrival ms since epoch]
    const clients = services.map((service) => createClient({ url: `${service.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { api_key: apiKey } }));
    let done;
    const all = new Promise((resolve) => (done = resolve));
    let arrivals = 0;
    for (const client of clients) {
      client.subscribe({ query: `subscription($p: ID!) { ledgerEvents(projectId: $p, types: ["hold.expired"]) { data } }`, variables: { p: String(projectId) } }, {
        next: (message) => {
          const id = message.data.ledgerEvents.data.id;
          received.set(id, [...(received.get(id) ?? []), Date.now()]);
          if (++arrivals === HOLDS * clients.length) done();
        },
        error: (err) => log('subscription error', err),
        complete: () => undefined,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // the subscriptions reach the services (a bench, not a test)

    const { rows: [{ second }] } = await sql.query(
      `WITH s AS (SELECT date_trunc('second', clock_timestamp()) + interval '3 seconds' AS second)
       UPDATE holds h SET expires_at = s.second + (h.seq % 1000) * interval '1 millisecond' FROM s WHERE h.project_id = $1 RETURNING s.second`,
      [projectId],
    );
    const cpuBefore = services.map((service) => processCpuSplitMs(service.pid));
    const timeout = setTimeout(() => done(), 120_000);
    await all;
    // what sweeping, numbering and delivering the burst cost each instance (user + kernel), whatever else the machine does
    const cpu = services.map((service, i) => {
      const after = processCpuSplitMs(service.pid);
      return `${after.user - cpuBefore[i].user} + ${after.system - cpuBefore[i].system} ms`;
    });
    clearTimeout(timeout);
    for (const client of clients) await client.dispose();

    const { rows } = await sql.query(
      `SELECT h.id, extract(epoch FROM h.expires_at) * 1000 AS due, extract(epoch FROM pg_xact_commit_timestamp(h.xmin)) * 1000 AS committed,
              (SELECT count(*) FROM events e WHERE e.subject_id = h.id AND e.type = 'hold.expired')::int AS events,
              (SELECT max(extract(epoch FROM pg_xact_commit_timestamp(e.xmin)) * 1000) FROM events e WHERE e.subject_id = h.id AND e.type = 'hold.expired') AS numbered
         FROM holds h WHERE h.project_id = $1`,
      [projectId],
    );
    const write = rows.map((r) => Number(r.committed) - Number(r.due));
    const delivery = rows.flatMap((r) => (received.get(r.id) ?? []).map((at) => at - Number(r.committed)));
    // the numbering run updates the event row (seq, stream_pos): its commit time is when the event was numbered
    const numbering = rows.map((r) => Number(r.numbered) - Number(r.committed));
    const afterNumbering = rows.flatMap((r) => (received.get(r.id) ?? []).map((at) => at - Number(r.numbered)));
    const once = rows.every((r) => r.events === 1);
    const missing = rows.filter((r) => (received.get(r.id) ?? []).length !== clients.length).length;
    const f = (v) => `${Math.round(v)} ms`;
    log(`\n${instances} instance(s): ${rows.length} holds due in the second from ${second.toISOString()}`);
    log(`  write lag (commit − expires_at): p50 ${f(percentile(write, 0.5))}, p99 ${f(percentile(write, 0.99))}, max ${f(Math.max(...write))}`);
    log(`  sweeper commit → subscriber message: p50 ${f(percentile(delivery, 0.5))}, p99 ${f(percentile(delivery, 0.99))}, max ${f(Math.max(...delivery))} (${delivery.length} messages, ${clients.length} subscriber(s))`);
    log(`    of which commit → numbered: p50 ${f(percentile(numbering, 0.5))}, p99 ${f(percentile(numbering, 0.99))}; numbered → message: p50 ${f(percentile(afterNumbering, 0.5))}, p99 ${f(percentile(afterNumbering, 0.99))}`);
    log(`  CPU of each instance (user + kernel) from the update of expires_at to the last message: ${cpu.join('; ')}`);
    log(`  hold.expired exactly once per hold: ${once}; holds a subscriber missed: ${missing}`);
  } finally {
    for (const service of services) await service.stop();
    await sql.end();
  }
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-expiry-lag-'));
  let cluster = await startCluster(dataDir);
  try {
    // commit timestamps, for the write lag; a server setting, so the cluster restarts once
    const admin = harnessPool(cluster.url('postgres'), 1);
    await admin.query(`ALTER SYSTEM SET track_commit_timestamp = on`);
    await admin.end();
    await cluster.stop();
    cluster = await startCluster(dataDir);
    for (const instances of INSTANCES) await run(cluster, instances);
  } finally {
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
