// Start-up of `npm start` on the embedded default, as shared/perf's `startup` workload runs it (a
// new LEDGER_DATA_DIR, no DATABASE_URL: first start = initdb + migrations, then a second start on
// the same directory), with what the wall-clock figure cannot show: the service's own phases (its
// `start-up phases` log line) and the CPU of every process of the start at the `listening on` line.
//
//   node bench/startup/startup-phases.mjs [--rounds 3] [--variant name:ENV=value[,ENV=value]]...
//
// Variants alternate with the unchanged start round by round (an A/B of a setting inside one run);
// `--variant initdb:LEDGER_CLUSTER_TEMPLATE=false` compares a first start by initdb with one from the
// build's cluster template (bench/results/2026-11-27-template.txt).
// Run it under the machine's benchmark lock: `flock /work/wt/bench.lock node bench/startup/startup-phases.mjs`.
// Needs a build (`npm run build`). Prints one line per start and the medians.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, chmodSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const TICK = 100; // USER_HZ: /proc times are in clock ticks

const args = process.argv.slice(2);
const rounds = Number(valueOf('--rounds') ?? 3);
const variants = [{ name: 'main', env: {} }, ...valuesOf('--variant').map(parseVariant)];

function valueOf(flag) {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
}
function valuesOf(flag) {
  return args.flatMap((arg, i) => (arg === flag ? [args[i + 1]] : []));
}
function parseVariant(text) {
  const [name, settings = ''] = text.split(/:(.*)/s);
  return { name, env: Object.fromEntries(settings.split(',').filter(Boolean).map((pair) => pair.split(/=(.*)/s).slice(0, 2))) };
}

/** Every process, with its parent and CPU (ticks: user + system, own and of waited-for children). */
function processes() {
  const all = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      all.set(Number(entry), {
        comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
        ppid: Number(fields[1]),
        cpu: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]),
      });
    } catch {
      // gone
    }
  }
  return all;
}

/** CPU seconds of `pid` and its descendants by command (node, postgres, …). */
function treeCpu(pid) {
  const all = processes();
  const byComm = {};
  const visit = (p) => {
    const proc = all.get(p);
    if (!proc) return;
    byComm[proc.comm] = (byComm[proc.comm] ?? 0) + proc.cpu / TICK;
    for (const [child, info] of all) if (info.ppid === p) visit(child);
  };
  visit(pid);
  return byComm;
}

async function start(dataDir, variant, which) {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const env = { ...process.env, ...variant.env, PORT: String(port), HOST: '127.0.0.1', LEDGER_DATA_DIR: dataDir, LEDGER_ADMIN_TOKEN: 'startup-phases-admin' };
  delete env.DATABASE_URL;
  const t0 = performance.now();
  const child = spawn('npm', ['start'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const ready = await new Promise((resolve, reject) => {
    const onData = (chunk) => {
      out += chunk.toString('utf8');
      if (/listening on http:\/\//.test(out)) resolve(performance.now() - t0);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${out}`)));
  });
  const cpu = treeCpu(child.pid);
  process.kill(-child.pid, 'SIGTERM');
  await exited;
  const line = out.split('\n').find((l) => l.includes('"start-up phases"'));
  const phases = line ? JSON.parse(line).startMs : {};
  const trace = out.split('\n').find((l) => l.startsWith('TRACE '));
  return { variant: variant.name, which, ready_ms: Math.round(ready), cpu, phases, trace: trace ? JSON.parse(trace.slice(6)) : undefined };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

const results = [];
console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${rounds} rounds; variants ${variants.map((v) => v.name).join(', ')}`);
for (let round = 1; round <= rounds; round++) {
  for (const variant of variants) {
    const tmp = mkdtempSync(path.join(tmpdir(), 'startup-phases-'));
    chmodSync(tmp, 0o755); // the postgres user reaches its data directory inside
    try {
      for (const which of ['first', 'second']) {
        const r = await start(path.join(tmp, 'data'), variant, which);
        results.push(r);
        const cpu = Object.entries(r.cpu).map(([comm, s]) => `${comm} ${s.toFixed(2)}`).join(', ');
        console.log(`round ${round} ${variant.name.padEnd(10)} ${which.padEnd(6)} ${(r.ready_ms / 1000).toFixed(2)} s  cpu: ${cpu}  phases ${JSON.stringify(r.phases)}  load ${loadavg()[0].toFixed(2)}`);
        if (r.trace) console.log(`  trace [name, uptime ms, node cpu ms]: ${r.trace.map(([n, t, c]) => `${n} ${t}/${c}`).join(' · ')}`);
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
}
console.log('\nmedians (min) per variant and start:');
for (const variant of variants) {
  for (const which of ['first', 'second']) {
    const rs = results.filter((r) => r.variant === variant.name && r.which === which);
    const total = (r) => Object.values(r.cpu).reduce((a, b) => a + b, 0);
    const node = (r) => (r.cpu.node ?? 0) + (r.cpu.MainThread ?? 0); // node 24 names its main thread (the process's comm) MainThread
    const pg = (r) => (r.cpu.postgres ?? 0) + (r.cpu.initdb ?? 0);
    const phaseNames = [...new Set(rs.flatMap((r) => Object.keys(r.phases)))];
    const phases = phaseNames.map((p) => `${p} ${median(rs.map((r) => r.phases[p] ?? 0))}`).join(', ');
    console.log(`${variant.name.padEnd(10)} ${which.padEnd(6)} ready ${(median(rs.map((r) => r.ready_ms)) / 1000).toFixed(2)} s (min ${(Math.min(...rs.map((r) => r.ready_ms)) / 1000).toFixed(2)}), cpu all ${median(rs.map(total)).toFixed(2)} s, node ${median(rs.map(node)).toFixed(2)} s, postgres+initdb ${median(rs.map(pg)).toFixed(2)} s; phases ms: ${phases}`);
  }
}
console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
