// Maturity lag (CONTRACT §26): 10,000 maturing holds whose matures_at fall in the same second,
// captured by the sweeper of one or two service instances (default settings: sweep every 1 s,
// rounds of 500 in transactions of 100), with some of the receivers busy: a client posting to them
// in a loop meanwhile, from another system wallet (a shop's), so that the program's wallet itself
// is busy only with the maturities (a busy sender moves the captures' dates, see the decision).
//
//   npm run build && ./node_modules/.bin/node bench/holds/maturity-lag.mjs [--instances 1,2] [--wallets 500] [--holds 10000] [--senders 1]
//
// One throw-away embedded PostgreSQL (bench/lib/postgres.js) with track_commit_timestamp on, the
// services as child processes. The holds (from `--senders` system wallets, the program's, to
// `--wallets` customers) are made through ledger_post with a one-hour matureIn, then their
// matures_at set to one second 3 s ahead. Reported per run:
//   lag          commit time of the round that captured the hold (pg_xact_commit_timestamp of the
//                hold row) − its matures_at: p50, p99, max (the contract: within 60 s);
//   each once    matured hold.captured events per hold (must be exactly 1), capture transactions;
//   dated        captures dated exactly matures_at (the rest: a busy receiver had a later one).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
const SENDERS = Number(option('senders', 1));
const BUSY = 5; // receivers a client keeps posting to during the burst
const ADMIN = 'bench-maturity-lag-admin-token';
const log = (...line) => console.log(...line);
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const LEDGER_POST = `ledger_post($1::text[], $2::int[], $3::uuid[], $4::uuid[], $5::uuid[], $6::bigint[], $7::text[], $8::int[], $9::uuid[], $10::text[], $11::json[], $12::int[], $13::int[], $14::timestamptz[])`;
const postings = (kind, projectId, assetId, from, to, amounts, matureIn = null) => {
  const n = to.length;
  const none = Array(n).fill(null);
  return [Array(n).fill(kind), Array(n).fill(projectId), Array(n).fill(assetId), from, to, amounts.map(String), none, none, none, none, none, none, Array(n).fill(matureIn), none];
};

async function run(cluster, instances) {
  const url = await cluster.createMigratedDatabase(`maturity_${instances}_${Date.now()}`);
  const sql = harnessPool(url, 4);
  const services = [];
  try {
    for (let i = 0; i < instances; i++) {
      services.push(await startServer(`service-${i}`, ['dist/src/main.js'], { DATABASE_URL: url, PORT: String(await freePort()), HOST: '127.0.0.1', LEDGER_ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'warn' }));
    }
    const base = services[0].url;
    const apiKey = (await call(base, 'POST', '/admin/api-keys', { headers: { admin_token: ADMIN }, body: { owner: 'bench', plan_code: 'enterprise' } })).json.api_key;
    const api = (method, p, body) => call(base, method, p, { headers: { api_key: apiKey }, body });
    const projectId = (await api('POST', '/projects', { name: 'maturity' })).json.id;
    const asset = (await api('POST', '/assets', { name: 'Points', symbol: 'PTS', fractions: 2, projectId })).json;
    const senders = [];
    for (let i = 0; i < SENDERS; i++) {
      const system = (await api('POST', '/wallets/create/system', { projectId })).json;
      await api('POST', '/transactions/seed', { amount: 100_000_000, currency: 'PTS', projectId, to: system.id });
      senders.push(system.id);
    }
    const shop = (await api('POST', '/wallets/create/system', { projectId })).json;
    await api('POST', '/transactions/seed', { amount: 100_000_000, currency: 'PTS', projectId, to: shop.id });
    const wallets = (await parallel(WALLETS, 16, async () => (await api('POST', '/wallets/create/customer', { projectId })).json)).map((w) => w.id);
    for (let i = 0; i < HOLDS; i += 2_000) {
      const n = Math.min(2_000, HOLDS - i);
      const from = Array.from({ length: n }, (_, k) => senders[(i + k) % SENDERS]);
      const to = Array.from({ length: n }, (_, k) => wallets[(i + k) % WALLETS]);
      const { rows } = await sql.query(`SELECT count(*) FILTER (WHERE code = 'ok')::int AS ok FROM ${LEDGER_POST}`, postings('hold', projectId, asset.id, from, to, Array(n).fill(1), 3600));
      if (rows[0].ok !== n) throw new Error(`holds: ${rows[0].ok} of ${n} made`);
    }

    const { rows: [{ second }] } = await sql.query(
      `WITH s AS (SELECT date_trunc('second', clock_timestamp()) + interval '3 seconds' AS second)
       UPDATE holds h SET matures_at = s.second + (h.seq % 1000) * interval '1 millisecond', maturity_due_at = s.second + (h.seq % 1000) * interval '1 millisecond'
         FROM s WHERE h.project_id = $1 RETURNING s.second`,
      [projectId],
    );
    // some receivers busy: transfers to them, one after another, until every hold is captured
    let busy = true;
    let busyPostings = 0;
    let busyRefused = 0;
    const busyLoop = (async () => {
      while (busy) {
        const answer = await call(base, 'POST', '/transactions', { headers: { api_key: apiKey }, body: { amount: 0.01, currency: 'PTS', projectId, from: shop.id, to: wallets[busyPostings % BUSY] }, allow: true });
        if (answer.status !== 201) busyRefused++;
        busyPostings++;
      }
    })();
    const started = Date.now();
    for (;;) {
      const { rows: [{ left }] } = await sql.query(`SELECT count(*)::int AS left FROM holds WHERE project_id = $1 AND status = 'pending'`, [projectId]);
      if (left === 0 || Date.now() - started > 120_000) break;
      await new Promise((resolve) => setTimeout(resolve, 200)); // a bench polling the outcome, not a test
    }
    busy = false;
    await busyLoop;

    const { rows } = await sql.query(
      `SELECT extract(epoch FROM h.matures_at) * 1000 AS due, extract(epoch FROM pg_xact_commit_timestamp(h.xmin)) * 1000 AS committed,
              h.status, t.created_at = h.matures_at AS dated,
              (SELECT count(*) FROM events e WHERE e.subject_id = h.id AND e.type = 'hold.captured' AND e.status = 'matured')::int AS events
         FROM holds h LEFT JOIN transactions t ON t.id = h.transaction_id WHERE h.project_id = $1`,
      [projectId],
    );
    const captured = rows.filter((r) => r.status === 'captured');
    const lag = captured.map((r) => Number(r.committed) - Number(r.due));
    const f = (v) => `${Math.round(v)} ms`;
    log(`\n${instances} instance(s), ${SENDERS} sender(s), ${WALLETS} receivers (${BUSY} busy: ${busyPostings} transfers to them meanwhile, ${busyRefused} not 201): ${rows.length} holds maturing in the second from ${second.toISOString()}`);
    log(`  lag (capture commit − matures_at): p50 ${f(percentile(lag, 0.5))}, p99 ${f(percentile(lag, 0.99))}, max ${f(Math.max(...lag))}`);
    log(`  captured ${captured.length} of ${rows.length}; matured hold.captured exactly once per hold: ${rows.every((r) => r.events === 1)}; dated exactly matures_at: ${captured.filter((r) => r.dated).length}`);
  } finally {
    for (const service of services) await service.stop();
    await sql.end();
  }
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-maturity-lag-'));
  let cluster = await startCluster(dataDir);
  try {
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
