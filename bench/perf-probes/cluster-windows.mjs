// Reads bench/perf-probes/cluster-sampler.mjs's samples and the harness's stderr (each line prefixed with the
// epoch time in seconds) and its JSON, and prints, for every measured run (workload, round, arm),
// the cluster's CPU per 2xx by process kind and the connections opened during it.
//
//   node bench/perf-probes/cluster-windows.mjs /tmp/samples.jsonl /tmp/harness.err /tmp/perf.json [--duration 20]

import { readFileSync } from 'node:fs';

const [samplesFile, logFile, jsonFile] = process.argv.slice(2);
const args = process.argv.slice(2);
const duration = Number(args.includes('--duration') ? args[args.indexOf('--duration') + 1] : 20);
const samples = readFileSync(samplesFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const result = JSON.parse(readFileSync(jsonFile, 'utf8'));
const short = (k) => k.replace('client backend', 'backend').replace('autovacuum worker', 'autovacuum').replace('background writer', 'bgwriter');

for (const line of readFileSync(logFile, 'utf8').split('\n')) {
  const m = line.match(/^(\d+\.\d+) \[\s*[\d.]+s\] (\w+): round (\d+) (\w+)/);
  if (!m) continue;
  const [, t, workload, round, arm] = m;
  const end = Number(t) * 1000;
  const run = result.workloads?.[workload]?.arms?.[arm]?.runs?.find((r) => r.round === Number(round));
  const ok = run?.ok ?? run?.requests_ok;
  if (!ok) continue;
  const cpu = {};
  const opened = {};
  const vacuums = new Map();
  for (const s of samples) {
    if (s.t <= end - duration * 1000 || s.t > end) continue;
    for (const [k, v] of Object.entries(s.cpu)) cpu[k] = (cpu[k] ?? 0) + v;
    for (const [k, v] of Object.entries(s.opened)) opened[k] = (opened[k] ?? 0) + v;
    for (const v of s.vacuums) vacuums.set(v, (vacuums.get(v) ?? 0) + 1);
  }
  const total = Object.values(cpu).reduce((a, b) => a + b, 0) / ok / 1000;
  const parts = Object.entries(cpu).map(([k, v]) => [k, v / ok / 1000]).filter(([, v]) => v >= 1).sort((a, b) => b[1] - a[1]);
  console.log(`${workload} r${round} ${arm.padEnd(8)} ${ok} 2xx, cluster ${total.toFixed(0)} µs per 2xx (harness db ${run.cpu?.db_us_per_ok?.toFixed(0)}): ${parts.map(([k, v]) => `${short(k)} ${v.toFixed(0)}`).join(', ')}`);
  if (Object.keys(opened).length) console.log(`   connections opened: ${Object.entries(opened).map(([k, v]) => `${short(k)} ${v}`).join(', ')}`);
  if (vacuums.size) console.log(`   autovacuum seen (250 ms samples): ${[...vacuums].map(([k, v]) => `${k} ×${v}`).join('; ')}`);
}
