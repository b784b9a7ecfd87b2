// CPU of the posting backend per transfer with 10 posting conditions (CONTRACT §28) against the
// same transfer with none (issue 41). As posting-cpu.mjs: `ledger_post` called directly, batches
// of `--batch` transfers of 1 between random customers, one call a transaction, one connection
// per arm, the backend's own CPU read from /proc/<pid>/schedstat. Both arms run the working
// tree's routines, each in its own database of one embedded cluster (run `npm run build` first);
// rounds alternate the arms. Arm `none` sends what PostingRepository sends without conditions;
// arm `ten` adds `p_conditions` with 10 conditions a transfer, every one holding (so every
// transfer posts): both parties, balance and available, every operator.
//
//   node bench/posting/conditions-cpu.mjs [--rounds 12] [--batches 40] [--batch 27] [--count 10] [--groups] [--stub]

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startCluster } from '../lib/postgres.js';
import { seedBaselineBySql, minorOf } from '../lib/seed.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const rounds = Number(option('rounds', 12));
const batches = Number(option('batches', 40));
const batchSize = Number(option('batch', 27));
const count = Number(option('count', 10)); // conditions per transfer in arm `ten` (1: what the subtransaction itself costs)
// arm `ten` sends each transfer as an atomic group of one instead, without conditions: the
// subtransaction and undeferred writes alone, what a conditioned request pays before its statement
const groups = args.includes('--groups');
// arm `ten`'s ledger_conditions replaced by one that returns NULL at once: the path without the judging statement
const stub = args.includes('--stub');

const cpuNs = (pid) => Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
const ARRAYS = `$1::text[], $2::int[], $3::uuid[], $4::uuid[], $5::uuid[], $6::bigint[], $7::text[], $8::int[], $9::uuid[], $10::text[], $11::json[], $12::int[]`;
const POST = `SELECT idx, code, detail FROM ledger_post(${ARRAYS})`;
const POST_CONDITIONED = `SELECT idx, code, detail FROM ledger_post(${ARRAYS}, p_conditions => $13::jsonb[])`;

/** 10 conditions that hold after a transfer of 1 between funded customers (values in minor units, as PostingRepository sends them). */
function tenConditions(asset, from, to) {
  const c = (wallet, field, op, value) => ({ wallet, asset, field, op, value: String(value), fractions: 2 });
  return JSON.stringify(
    [
    c(from, 'balance', 'gte', 0), c(to, 'balance', 'gt', 0), c(from, 'available', 'gte', 0), c(to, 'available', 'gt', -1),
    c(from, 'balance', 'lte', '9000000000000000'), c(to, 'balance', 'lt', '9000000000000000'), c(from, 'available', 'lte', '9000000000000000'),
    c(to, 'available', 'lt', '9000000000000000'), c(from, 'balance', 'gt', -100), c(to, 'balance', 'gte', 1),
    ].slice(0, count),
  );
}

async function prepareArm(cluster, name) {
  const url = await cluster.createMigratedDatabase(`conditions_${name}`);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const fixture = await seedBaselineBySql(pool);
  await pool.end();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query(`SELECT pg_backend_pid() AS pid, id AS asset FROM assets LIMIT 1`);
  return { name, client, pid: rows[0].pid, asset: rows[0].asset, projectId: fixture.projectId, wallets: fixture.customers.map((c) => c.id), cpu: [], wall: [] };
}

function batchParams(arm) {
  const from = [];
  const to = [];
  for (let i = 0; i < batchSize; i++) {
    const f = Math.floor(Math.random() * arm.wallets.length);
    let t = Math.floor(Math.random() * (arm.wallets.length - 1));
    if (t >= f) t += 1;
    from.push(arm.wallets[f]);
    to.push(arm.wallets[t]);
  }
  const fill = (v) => Array.from({ length: batchSize }, () => v);
  const params = [fill('transfer'), fill(arm.projectId), fill(arm.asset), from, to, fill(minorOf(1).toString()), fill(null), fill(null), fill(null), fill(null), fill(null), fill(null)];
  if (arm.name === 'ten' && groups) params[7] = from.map((_, i) => i + 1);
  else if (arm.name === 'ten') params.push(from.map((f, i) => tenConditions(arm.asset, f, to[i])));
  return params;
}

async function call(arm) {
  const { rows } = await arm.client.query(arm.name === 'ten' && !groups ? POST_CONDITIONED : POST, batchParams(arm));
  if (rows.some((row) => row.code !== 'ok')) throw new Error(`${arm.name}: refused: ${JSON.stringify(rows.find((row) => row.code !== 'ok'))}`);
}

async function runRound(arm) {
  const started = process.hrtime.bigint();
  const before = cpuNs(arm.pid);
  for (let b = 0; b < batches; b++) await call(arm);
  arm.cpu.push((cpuNs(arm.pid) - before) / (batches * batchSize) / 1000);
  arm.wall.push(Number(process.hrtime.bigint() - started) / 1e3 / (batches * batchSize));
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const dataDir = mkdtempSync(path.join(tmpdir(), 'conditions-cpu-'));
const cluster = await startCluster(dataDir);
try {
  const arms = [await prepareArm(cluster, 'none'), await prepareArm(cluster, 'ten')];
  if (stub) await arms[1].client.query(`CREATE OR REPLACE FUNCTION ledger_conditions(p_project integer, p_conditions jsonb, p_now timestamp with time zone) RETURNS jsonb LANGUAGE plpgsql AS $fn$ BEGIN RETURN NULL; END $fn$`);
  for (const arm of arms) for (let b = 0; b < 20; b++) await call(arm); // warm the caches and plans
  for (let r = 0; r < rounds; r++) for (const arm of r % 2 ? [...arms].reverse() : arms) await runRound(arm);
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`ledger_post, ${batchSize} transfers a call, ${batches} calls a round, ${rounds} rounds alternating; load average ${load}`);
  console.log(`backend CPU us per transfer (median; rounds), and wall us per transfer (median)`);
  for (const arm of arms) {
    const label = arm.name === 'none' ? 'no conditions' : groups ? 'each a group of one' : `${count} condition${count === 1 ? '' : 's'} each${stub ? ', unjudged' : ''}`;
    console.log(`  ${label.padEnd(20)} ${median(arm.cpu).toFixed(1).padStart(6)}  (${arm.cpu.map((v) => v.toFixed(1)).join(' ')})   wall ${median(arm.wall).toFixed(0)}`);
  }
  const pairs = arms[0].cpu.map((v, i) => arms[1].cpu[i] / v);
  console.log(`  ten / none, per round: ${pairs.map((v) => v.toFixed(3)).join(' ')}; median ${median(pairs).toFixed(3)}`);
  for (const arm of arms) await arm.client.end();
} finally {
  await cluster.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
