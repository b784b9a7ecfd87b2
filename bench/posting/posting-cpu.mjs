// CPU of the posting backend per transfer (issue 23): the group-commit queue sends each batch as
// ONE `ledger_post` call run by ONE PostgreSQL backend, serially, so that backend's CPU per
// posting bounds POST /transactions. This calls `ledger_post` directly, batches of `--batch`
// uniform transfers among the seeded customer wallets (as the `transfers` workload makes them),
// one call a transaction, on one connection per arm, and reads that backend's own CPU time from
// /proc/<pid>/schedstat (nanoseconds on CPU; robust when the machine is loaded, unlike rates).
//
// A/B in one run: arm `ref` runs the routine files of a git revision (`--against`, default HEAD),
// arm `tree` those of the working tree, each in its own database of one embedded cluster, both
// migrated by dist/ (run `npm run build` first); rounds alternate the arms (and which goes first).
//
//   node bench/posting/posting-cpu.mjs [--against <rev>] [--tree <rev>] [--rounds 16] [--batches 60] [--batch 27]
//        [--setup-ref file.sql] [--setup-tree file.sql]   (extra SQL for one arm, e.g. an index drop)
//        [--sequence]   (after each call, number its events as the sequencer does, ledger_sequence_events, on a
//                        second connection; that backend's CPU is reported too, and the sum)
//        [--hot]        (every transfer from the seeded system wallet to a random customer, as the `hot`
//                        workload makes them: one balance row debited by every transfer of a batch)

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startCluster } from '../lib/postgres.js';
import { seedBaselineBySql, minorOf } from '../lib/seed.js';
import { ROOT } from '../lib/processes.js';
import { ROUTINES } from '../../dist/src/db/routines.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const against = option('against', 'HEAD');
const treeRev = option('tree', null); // the second arm's revision (default: the working tree)
const rounds = Number(option('rounds', 16));
const batches = Number(option('batches', 60));
const batchSize = Number(option('batch', 27));
const sequence = args.includes('--sequence');
const hot = args.includes('--hot');

/** The routine files as they are at `rev` (null: the working tree), in installation order; a routine `rev` has no file for is left out. */
function routineTexts(rev) {
  const atRev = (file) => {
    try {
      return execFileSync('git', ['show', `${rev}:${file}`], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      return null;
    }
  };
  return ROUTINES.map(({ file }) => (rev === null ? readFileSync(path.join(ROOT, file), 'utf8') : atRev(file))).filter((text) => text !== null);
}

/** Replaces every routine of the database by the given texts (all dropped first: a signature may differ). */
async function installRoutines(client, texts) {
  await client.query('BEGIN');
  const { rows } = await client.query(
    `SELECT p.oid::regprocedure::text AS signature FROM pg_proc p
      WHERE p.proname = ANY ($1) AND p.pronamespace = current_schema()::regnamespace`,
    [ROUTINES.map((r) => r.name)],
  );
  for (const { signature } of rows) await client.query(`DROP FUNCTION IF EXISTS ${signature} CASCADE`);
  for (const sql of texts) await client.query(sql);
  await client.query('COMMIT');
}

/** Nanoseconds on CPU of one process so far. */
const cpuNs = (pid) => Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);

const POST = `SELECT idx, code, tx_id, tx_seq, from_balance, to_balance, posted_at, hold_id, detail
  FROM ledger_post($1::text[], $2::int[], $3::uuid[], $4::uuid[], $5::uuid[], $6::bigint[], $7::text[], $8::int[], $9::uuid[], $10::text[], $11::json[], $12::int[])`;

async function prepareArm(cluster, name, texts, setupFile) {
  const url = await cluster.createMigratedDatabase(`posting_${name}`);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const fixture = await seedBaselineBySql(pool);
  await pool.end();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await installRoutines(client, texts);
  if (setupFile) await client.query(readFileSync(setupFile, 'utf8'));
  const { rows } = await client.query(`SELECT pg_backend_pid() AS pid, id AS asset FROM assets LIMIT 1`);
  let sequencer = null;
  if (sequence) {
    sequencer = new pg.Client({ connectionString: url });
    await sequencer.connect();
    sequencer.pid = (await sequencer.query(`SELECT pg_backend_pid() AS pid`)).rows[0].pid;
  }
  return { name, client, sequencer, pid: rows[0].pid, asset: rows[0].asset, projectId: fixture.projectId, wallets: fixture.customers.map((c) => c.id), system: fixture.systemWallet.id, cpu: [], seqCpu: [], wall: [] };
}

/** One batch's parameters: `batchSize` transfers of 1 PTS between two distinct random customers (`--hot`: from the system wallet). */
function batchParams(arm) {
  const n = batchSize;
  const from = [];
  const to = [];
  for (let i = 0; i < n; i++) {
    const f = Math.floor(Math.random() * arm.wallets.length);
    let t = Math.floor(Math.random() * (arm.wallets.length - 1));
    if (t >= f) t += 1;
    from.push(hot ? arm.system : arm.wallets[f]);
    to.push(arm.wallets[t]);
  }
  const fill = (v) => Array.from({ length: n }, () => v);
  return [fill('transfer'), fill(arm.projectId), fill(arm.asset), from, to, fill(minorOf(1).toString()), fill(null), fill(null), fill(null), fill(null), fill(null), fill(null)];
}

async function runRound(arm) {
  const started = process.hrtime.bigint();
  const before = cpuNs(arm.pid);
  const seqBefore = arm.sequencer ? cpuNs(arm.sequencer.pid) : 0;
  for (let b = 0; b < batches; b++) {
    const { rows } = await arm.client.query(POST, batchParams(arm));
    if (rows.some((row) => row.code !== 'ok')) throw new Error(`${arm.name}: a transfer was refused: ${rows.find((row) => row.code !== 'ok').code}`);
    if (arm.sequencer) await arm.sequencer.query(`SELECT ledger_sequence_events(100000)`);
  }
  arm.cpu.push((cpuNs(arm.pid) - before) / (batches * batchSize) / 1000);
  if (arm.sequencer) arm.seqCpu.push((cpuNs(arm.sequencer.pid) - seqBefore) / (batches * batchSize) / 1000);
  arm.wall.push(Number(process.hrtime.bigint() - started) / 1e3 / (batches * batchSize));
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const dataDir = mkdtempSync(path.join(tmpdir(), 'posting-cpu-'));
const cluster = await startCluster(dataDir);
try {
  const ref = await prepareArm(cluster, 'ref', routineTexts(against), option('setup-ref'));
  const tree = await prepareArm(cluster, 'tree', routineTexts(treeRev), option('setup-tree'));
  const arms = [ref, tree];
  console.error(`backend pids (for perf record -p): ref ${ref.pid}, tree ${tree.pid}${sequence ? `; sequencers: ref ${ref.sequencer.pid}, tree ${tree.sequencer.pid}` : ''}`);
  for (const arm of arms) for (let b = 0; b < 20; b++) await arm.client.query(POST, batchParams(arm)); // warm the caches and plans
  for (let r = 0; r < rounds; r++) for (const arm of r % 2 ? [...arms].reverse() : arms) await runRound(arm);
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`ledger_post, ${batchSize} ${hot ? 'hot (system wallet → customer) ' : ''}transfers a call, ${batches} calls a round, ${rounds} rounds alternating; load average ${load}`);
  console.log(`backend CPU us per transfer (median; rounds), and wall us per transfer (median)`);
  for (const arm of arms) {
    const label = arm.name === 'ref' ? `ref ${against}` : `tree ${treeRev ?? '(working tree)'}`;
    console.log(`  ${label.padEnd(28)} ${median(arm.cpu).toFixed(1).padStart(6)}  (${arm.cpu.map((v) => v.toFixed(1)).join(' ')})   wall ${median(arm.wall).toFixed(0)}`);
  }
  const pairs = ref.cpu.map((v, i) => tree.cpu[i] / v);
  console.log(`  tree / ref, per round: ${pairs.map((v) => v.toFixed(3)).join(' ')}; median ${median(pairs).toFixed(3)}`);
  if (sequence) {
    console.log(`sequencer backend CPU us per transfer (median), and posting + sequencer`);
    for (const arm of arms) console.log(`  ${arm.name.padEnd(5)} sequencer ${median(arm.seqCpu).toFixed(1).padStart(6)}  sum ${median(arm.cpu.map((v, i) => v + arm.seqCpu[i])).toFixed(1).padStart(6)}`);
    const sums = ref.cpu.map((v, i) => (tree.cpu[i] + tree.seqCpu[i]) / (v + ref.seqCpu[i]));
    const seqs = ref.seqCpu.map((v, i) => tree.seqCpu[i] / v);
    console.log(`  tree / ref: sequencer median ${median(seqs).toFixed(3)}, sum median ${median(sums).toFixed(3)} (per round: ${sums.map((v) => v.toFixed(3)).join(' ')})`);
  }
  for (const arm of arms) await arm.client.end();
  for (const arm of arms) await arm.sequencer?.end();
} finally {
  await cluster.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
