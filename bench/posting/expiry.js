// Points that expire (CONTRACT §15): what lots cost.
//
//   npm run build && ./node_modules/.bin/node bench/posting/expiry.js [transfers] [debit] [sweeper] [--duration 10] [--rounds 2] [--connections 64]
//
// One throw-away embedded PostgreSQL (bench/lib/postgres.js) and the service as a child process
// (default settings: sweeper every 1 s, 500 lots per batch). Three measurements:
//
// transfers  POST /transactions (random customer -> other customer, 0.01) on two projects of the
//            same service in the same run, alternating rounds: PLAIN (asset without expiry) and
//            EXPIRING (expiresAfterSeconds one day, every wallet holding 20 live lots before the
//            run; every credit of the run adds one). Ratio EXPIRING / PLAIN of 2xx per second.
// debit      ledger_post of one debit of a customer, straight over SQL (no HTTP), p50 of 300 calls:
//            a wallet holding 10 lots and one holding 1,000, each debit consuming one lot; then
//            debits consuming 10 and 100 lots. With pg_stat_statements tracking nested
//            statements, the buffers the consumption query touches per debit.
// sweeper    20,000 lots made due at one instant, no load: lots expired per second by the
//            service's sweeper. Then, under the transfers load on PLAIN, 20,000 lots whose
//            expires_at are spread over 20 s: the lag from expires_at to the posting of the
//            expiry, sampled every 250 ms as the age of the oldest due lot not yet expired.
// overhead   what the lot hooks cost a posting of an asset without expiry: ledger_post as
//            installed vs the same routines without the lot rules' asset lookup (ledger_post_without_lots),
//            straight over SQL, synchronous_commit off (the commit's fsync would hide it),
//            interleaved: single transfers, and batches of 100 (as the posting queue sends them).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { call, parallel } from '../lib/http.js';
import { harnessPool, startCluster } from '../lib/postgres.js';
import { freePort, startServer } from '../lib/processes.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const parts = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')));
const wanted = (part) => parts.length === 0 || parts.includes(part);
const DURATION = option('duration', 10);
const ROUNDS = option('rounds', 2);
const CONNECTIONS = option('connections', 64);
const CUSTOMERS = 500;
const LOTS_PER_WALLET = 20;
const ADMIN = 'bench-expiry-admin-token';

const log = (...line) => console.log(...line);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** ledger_post over SQL: transfers `from[i]` → `to[i]` of `amount[i]` minor units (the function's 12 arrays). */
const LEDGER_POST = (fn = 'ledger_post') =>
  `${fn}($1::text[], $2::int[], $3::uuid[], $4::uuid[], $5::uuid[], $6::bigint[], $7::text[], $8::int[], $9::uuid[], $10::text[], $11::json[], $12::int[])`;
const transfers = (projectId, assetId, from, to, amounts) => {
  const none = Array(to.length).fill(null);
  return [Array(to.length).fill('transfer'), Array(to.length).fill(projectId), Array(to.length).fill(assetId), from, to, amounts.map(String), none, none, none, none, none, none];
};

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-expiry-'));
  const cluster = await startCluster(dataDir);
  let service;
  try {
    const url = await cluster.createMigratedDatabase('bench_expiry');
    const sql = harnessPool(url, 4);
    const port = await freePort();
    service = await startServer('service', ['dist/src/main.js'], {
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      LEDGER_ADMIN_TOKEN: ADMIN,
      LOG_LEVEL: 'warn',
    });
    const base = service.url;
    const apiKey = (await call(base, 'POST', '/admin/api-keys', { headers: { admin_token: ADMIN }, body: { owner: 'bench', plan_code: 'enterprise' } })).json.api_key;
    const api = (method, p, body) => call(base, method, p, { headers: { api_key: apiKey }, body });
    const project = async (name, expiresAfterSeconds, customers = CUSTOMERS) => {
      const projectId = (await api('POST', '/projects', { name })).json.id;
      const asset = (await api('POST', '/assets', { name: 'Points', symbol: 'PTS', fractions: 2, projectId, expiresAfterSeconds })).json;
      const system = (await api('POST', '/wallets/create/system', { projectId })).json;
      const wallets = await parallel(customers, 16, async () => (await api('POST', '/wallets/create/customer', { projectId })).json);
      await api('POST', '/transactions/seed', { amount: 100_000_000, currency: 'PTS', projectId, to: system.id });
      return { projectId, assetId: asset.id, system, customers: wallets };
    };
    /** `credits[i]` minor units from the system wallet to `to[i]`, straight through ledger_post, 1,000 per call. */
    const credit = async (p, to, amounts) => {
      for (let i = 0; i < to.length; i += 1000) {
        const n = Math.min(1000, to.length - i);
        const { rows } = await sql.query(
          `SELECT count(*) FILTER (WHERE code = 'ok')::int AS ok FROM ${LEDGER_POST()}`,
          transfers(p.projectId, p.assetId, Array(n).fill(p.system.id), to.slice(i, i + n), amounts.slice(i, i + n)),
        );
        if (rows[0].ok !== n) throw new Error(`bulk credit: ${rows[0].ok} of ${n} posted`);
      }
    };
    const liveLots = async (p) => Number((await sql.query(`SELECT count(*)::int AS n FROM lots WHERE project_id = $1 AND remaining > 0 AND expires_at > now()`, [p.projectId])).rows[0].n);

    log(`service ${base}; ${CUSTOMERS} customers per project; ${CONNECTIONS} connections, ${DURATION} s × ${ROUNDS} rounds per contestant`);
    const plain = await project('plain', null);
    const results = {};

    if (wanted('transfers') || wanted('sweeper')) {
      const fund = (p) => credit(p, p.customers.flatMap((c) => Array(LOTS_PER_WALLET).fill(c.id)), Array(p.customers.length * LOTS_PER_WALLET).fill(10_000n));
      await fund(plain);
      if (wanted('transfers')) {
        const expiring = await project('expiring', 86_400);
        await fund(expiring);
        log(`\n[transfers] EXPIRING holds ${await liveLots(expiring)} live lots (${LOTS_PER_WALLET} per wallet); PLAIN ${await liveLots(plain)}`);
        const runs = { plain: [], expiring: [] };
        await load(base, apiKey, plain, 2);
        await load(base, apiKey, expiring, 2);
        for (let round = 1; round <= ROUNDS; round++) {
          for (const [name, p] of [['plain', plain], ['expiring', expiring]]) {
            const r = await load(base, apiKey, p, DURATION);
            runs[name].push(r);
            log(`  round ${round} ${name.padEnd(8)} ${r.okPerSecond.toFixed(0)} 2xx/s  p50 ${r.p50} ms  p99 ${r.p99} ms  non-2xx ${r.non2xx}  errors ${r.errors}`);
          }
        }
        const mean = (rs) => rs.reduce((s, r) => s + r.okPerSecond, 0) / rs.length;
        results.transfers = { plain: mean(runs.plain), expiring: mean(runs.expiring), ratio: mean(runs.expiring) / mean(runs.plain), lotsAfter: await liveLots(expiring) };
        log(`  => EXPIRING / PLAIN = ${results.transfers.ratio.toFixed(3)} (${results.transfers.expiring.toFixed(0)} vs ${results.transfers.plain.toFixed(0)} 2xx/s); EXPIRING holds ${results.transfers.lotsAfter} live lots after the runs`);
      }
    }

    if (wanted('debit')) {
      log('\n[debit] one ledger_post per call over SQL, 300 calls per case, cases interleaved');
      const d = await project('debits', 86_400, 4);
      const [ten, thousand, many, sink] = d.customers;
      await credit(d, Array(10).fill(ten.id), Array(10).fill(1_000_000n));
      await credit(d, Array(1000).fill(thousand.id), Array(1000).fill(1_000_000n));
      await credit(d, Array(40_000).fill(many.id), Array(40_000).fill(1n));
      const client = await sql.connect();
      try {
        const tracking = await client.query(`SET pg_stat_statements.track = 'all'`).then(() => true, () => false);
        const debit = async (from, amount) => {
          const started = performance.now();
          const { rows } = await client.query(`SELECT code FROM ${LEDGER_POST()}`, transfers(d.projectId, d.assetId, [from], [sink.id], [amount]));
          if (rows[0].code !== 'ok') throw new Error(`debit refused: ${rows[0].code}`);
          return performance.now() - started;
        };
        const cases = [
          ['10 lots held, consumes 1', ten.id, 1],
          ['1,000 lots held, consumes 1', thousand.id, 1],
          ['~40,000 lots held, consumes 10', many.id, 10],
          ['~40,000 lots held, consumes 100', many.id, 100],
        ];
        const times = cases.map(() => []);
        for (let i = 0; i < 20; i++) for (const [k, [, from, amount]] of cases.entries()) await debit(from, amount); // warm
        const buffers = [];
        for (const [k, [, from, amount]] of cases.entries()) {
          if (tracking) await client.query('SELECT pg_stat_statements_reset()');
          for (let i = 0; i < 150; i++) times[k].push(await debit(from, amount));
          if (tracking) {
            const { rows } = await client.query(
              `SELECT calls::int, (shared_blks_hit + shared_blks_read)::float8 / calls AS blocks, mean_exec_time::float8 AS ms
                 FROM pg_stat_statements WHERE query ILIKE '%AS free%l.expires_at > %' ORDER BY calls DESC LIMIT 1`,
            );
            buffers[k] = rows[0];
          }
        }
        for (let round = 0; round < 150; round++) for (const [k, [, from, amount]] of cases.entries()) times[k].push(await debit(from, amount));
        results.debit = cases.map(([name], k) => ({ name, p50: median(times[k]), p90: percentile(times[k], 0.9), blocks: buffers[k]?.blocks, consumeMs: buffers[k]?.ms }));
        for (const r of results.debit) {
          log(`  ${r.name.padEnd(32)} p50 ${r.p50.toFixed(3)} ms  p90 ${r.p90.toFixed(3)} ms` + (r.blocks !== undefined ? `  consumption query: ${r.blocks.toFixed(1)} buffers, ${r.consumeMs.toFixed(3)} ms per debit` : ''));
        }
        if (!tracking) log('  (pg_stat_statements.track = all not available: no buffer figures)');
      } finally {
        client.release();
      }
    }

    if (wanted('sweeper')) {
      log('\n[sweeper] the service\'s own sweeper (LEDGER_LOT_SWEEP_INTERVAL_MS 1000, LEDGER_LOT_SWEEP_BATCH 500)');
      const s = await project('sweep', 86_400, 200);
      const due = async () => Number((await sql.query(`SELECT count(*)::int AS n FROM lots WHERE project_id = $1 AND remaining > held AND expires_at <= now()`, [s.projectId])).rows[0].n);
      const spread = (seconds) =>
        sql.query(
          `UPDATE lots l SET expires_at = clock_timestamp()::timestamptz(3) + make_interval(secs => $2::float8 * x.n / x.total)
             FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n, count(*) OVER () AS total FROM lots WHERE project_id = $1 AND remaining > held) x
            WHERE l.id = x.id`,
          [s.projectId, seconds],
        );
      // burst: 20,000 lots due at once, no load
      await credit(s, Array.from({ length: 20_000 }, (_, i) => s.customers[i % s.customers.length].id), Array(20_000).fill(5n));
      await spread(0);
      const started = performance.now();
      let firstSeen = null;
      for (let left = await due(); left > 0; left = await due()) {
        if (firstSeen === null && left < 20_000) firstSeen = performance.now();
        await sleep(50);
      }
      const ended = performance.now();
      const burstSeconds = (ended - (firstSeen ?? started)) / 1000;
      results.sweepBurst = { lots: 20_000, waitedForFirstSweepMs: Math.round((firstSeen ?? ended) - started), seconds: burstSeconds, lotsPerSecond: 20_000 / burstSeconds };
      log(`  burst: 20,000 due lots expired in ${burstSeconds.toFixed(2)} s once the sweep started (${results.sweepBurst.lotsPerSecond.toFixed(0)} lots/s; the next sweep began ${results.sweepBurst.waitedForFirstSweepMs} ms after they fell due)`);

      // steady: 20,000 lots falling due over 20 s, under the transfers load on PLAIN
      await credit(s, Array.from({ length: 20_000 }, (_, i) => s.customers[i % s.customers.length].id), Array(20_000).fill(5n));
      await spread(20);
      const samples = [];
      let loading = true;
      const sampler = (async () => {
        while (loading) {
          const { rows } = await sql.query(
            `SELECT coalesce(extract(epoch FROM clock_timestamp() - min(expires_at)) * 1000, 0)::float8 AS age
               FROM lots WHERE project_id = $1 AND remaining > held AND expires_at <= clock_timestamp()`,
            [s.projectId],
          );
          samples.push(rows[0].age);
          await sleep(250);
        }
      })();
      const r = await load(base, apiKey, plain, 30);
      loading = false;
      await sampler;
      const left = await due();
      results.sweepUnderLoad = { transfersPerSecond: r.okPerSecond, lagMaxMs: Math.max(...samples), lagP50Ms: median(samples), lagP90Ms: percentile(samples, 0.9), leftDue: left };
      log(
        `  under load (${r.okPerSecond.toFixed(0)} transfers/s on PLAIN for 30 s): lag from expires_at to posting, sampled: ` +
          `p50 ${results.sweepUnderLoad.lagP50Ms.toFixed(0)} ms, p90 ${results.sweepUnderLoad.lagP90Ms.toFixed(0)} ms, max ${results.sweepUnderLoad.lagMaxMs.toFixed(0)} ms; ${left} due lots left at the end`,
      );
    }
    if (wanted('overhead')) {
      log('\n[overhead] ledger_post vs ledger_post_without_lots on an asset without expiry, synchronous_commit off');
      // The posting routines as installed, under other names, with the lot rules' one statement on the
      // path of an asset that never expired (the asset lookup in ledger_move) taken out.
      const routine = (name) => readFileSync(new URL(`../../src/domain/ledger/${name}.sql`, import.meta.url), 'utf8').replace(/^DROP FUNCTION[^\n]*\n/m, '');
      const renamed = (text) => text.replace(/\b(ledger_move|ledger_apply|ledger_post)\(/g, '$1_without_lots(');
      const move = routine('ledger_move').replace(/^\s*SELECT a\.ever_expiring[^\n]*\n/m, '  v_lots := false; v_lot_seconds := NULL;\n');
      if (move === routine('ledger_move')) throw new Error('ledger_move: the lot lookup to take out was not found');
      for (const text of [move, routine('ledger_apply'), routine('ledger_post')]) await sql.query(renamed(text));
      const o = await project('overhead', null, 200);
      await credit(o, o.customers.map((c) => c.id), Array(o.customers.length).fill(1_000_000n));
      const client = await sql.connect();
      try {
        await client.query('SET synchronous_commit = off');
        const post = async (fn, size) => {
          const pairs = Array.from({ length: size }, () => {
            const from = Math.floor(Math.random() * o.customers.length);
            return [o.customers[from].id, o.customers[(from + 1 + Math.floor(Math.random() * (o.customers.length - 1))) % o.customers.length].id];
          });
          const started = performance.now();
          await client.query(`SELECT count(*) FROM ${LEDGER_POST(fn)}`, transfers(o.projectId, o.assetId, pairs.map((p) => p[0]), pairs.map((p) => p[1]), Array(size).fill(1)));
          return performance.now() - started;
        };
        for (const size of [1, 100]) {
          const times = { ledger_post: [], ledger_post_without_lots: [] };
          for (let i = 0; i < 20; i++) for (const fn of Object.keys(times)) await post(fn, size);
          for (let i = 0; i < (size === 1 ? 1000 : 100); i++) for (const fn of Object.keys(times)) times[fn].push(await post(fn, size));
          const [w, wo] = [median(times.ledger_post), median(times.ledger_post_without_lots)];
          results[`overhead${size}`] = { withLots: w, withoutLots: wo, ratio: w / wo };
          log(`  ${String(size).padStart(3)} transfer(s) per call: p50 ${w.toFixed(3)} ms with the hooks, ${wo.toFixed(3)} ms without (${(w / wo).toFixed(2)} ×)`);
        }
      } finally {
        client.release();
      }
    }
    log(`\n${JSON.stringify(results, null, 1)}`);
    await sql.end();
  } finally {
    await service?.stop();
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `seconds` of autocannon: random customer -> other customer of project `p`, 0.01 PTS. */
async function load(base, apiKey, p, seconds) {
  const n = p.customers.length;
  const body = () => {
    const from = Math.floor(Math.random() * n);
    let to = Math.floor(Math.random() * (n - 1));
    if (to >= from) to += 1;
    return JSON.stringify({ amount: 0.01, currency: 'PTS', from: p.customers[from].id, to: p.customers[to].id, projectId: p.projectId });
  };
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        duration: seconds,
        timeout: 10,
        requests: [{ method: 'POST', path: '/transactions', headers: { 'content-type': 'application/json', api_key: apiKey }, setupRequest: (req) => ({ ...req, body: body() }) }],
      },
      (error, res) => (error ? reject(error) : resolve(res)),
    );
    instance.on('error', () => undefined);
  });
  return { okPerSecond: result['2xx'] / result.duration, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
