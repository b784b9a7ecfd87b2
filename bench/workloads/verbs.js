// Throughput of the ledger verbs (issue 11), standalone so it does not depend on the harness:
//   npm run build && node bench/workloads/verbs.js [--duration 10] [--connections 32]
//   node bench/workloads/verbs.js --url http://127.0.0.1:4000 --key <api key>   (a running service)
// Without --url it starts the built service (dist/src/main.js) on a fresh embedded database in a
// temporary LEDGER_DATA_DIR and uses its dev key. Measures, one after the other, over the same
// 200 funded customer wallets: uniform transfers (for reference), hold captures (holds created
// beforehand, each captured once), and 10-leg batches (POST /transactions/batch). Prints
// operations/s and p50/p99 latency; every answer must be a 201.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: opts } = parseArgs({
  options: {
    url: { type: 'string' },
    key: { type: 'string' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    customers: { type: 'string', default: '200' },
  },
});
const duration = Number(opts.duration) * 1000;
const connections = Number(opts.connections);
const customersWanted = Number(opts.customers);

async function startService() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ledger-verbs-bench-'));
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    env: { ...process.env, PORT: '0', LEDGER_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`service exited with ${code}`)));
  });
  const key = readFileSync(path.join(dataDir, 'dev-api-key'), 'utf8').trim();
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, key, stop };
}

function client(url, key) {
  return async (method, route, body) => {
    const started = performance.now();
    const res = await fetch(url + route, { method, headers: { api_key: key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = await res.json();
    return { status: res.status, body: json, ms: performance.now() - started };
  };
}

async function must(promise, status) {
  const res = await promise;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** `connections` loops calling `next()` until `duration` has passed (or `next` returns null). */
async function measure(name, next) {
  const latencies = [];
  const failures = [];
  const started = performance.now();
  const until = started + duration;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const call = next();
        if (!call) return;
        const res = await call;
        latencies.push(res.ms);
        if (res.status !== 201) failures.push(`${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]?.toFixed(1);
  const row = { workload: name, operations: latencies.length, perSecond: Math.round(latencies.length / seconds), p50ms: at(0.5), p99ms: at(0.99), failures: failures.length };
  console.log(JSON.stringify(row));
  if (failures.length) console.log(`  first failures: ${failures.slice(0, 3).join(' | ')}`);
  return row;
}

const service = opts.url ? { url: opts.url, key: opts.key, stop: async () => {} } : await startService();
const call = client(service.url, service.key);
try {
  const project = await must(call('POST', '/projects', { name: 'verbs bench' }), 201);
  const projectId = project.id;
  await must(call('POST', '/assets', { name: 'Points', symbol: 'PTS', fractions: 2, projectId }), 201);
  const system = await must(call('POST', '/wallets/create/system', { projectId }), 201);
  await must(call('POST', '/transactions/seed', { amount: 100_000_000, currency: 'PTS', projectId, to: system.id }), 201);
  const customers = [];
  for (let i = 0; i < customersWanted; i++) {
    const wallet = await must(call('POST', '/wallets/create/customer', { projectId }), 201);
    await must(call('POST', '/transactions', { amount: 100_000, currency: 'PTS', projectId, from: system.id, to: wallet.id }), 201);
    customers.push(wallet.id);
  }
  const pair = () => {
    const from = Math.floor(Math.random() * customers.length);
    let to = Math.floor(Math.random() * (customers.length - 1));
    if (to >= from) to += 1;
    return [customers[from], customers[to]];
  };
  const leg = () => {
    const [from, to] = pair();
    return { amount: 0.01, currency: 'PTS', from, to };
  };

  await measure('transfers', () => call('POST', '/transactions', { ...leg(), projectId }));

  // Holds first (not measured), then each captured once: what capture alone costs.
  const holds = [];
  const wanted = Math.max(2000, connections * 100);
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (holds.length < wanted) holds.push((await must(call('POST', '/holds', { ...leg(), projectId }), 201)).hold.id);
    }),
  );
  let nextHold = 0;
  await measure('captures', () => (nextHold < holds.length ? call('POST', `/holds/${holds[nextHold++]}/capture`, { projectId }) : null));
  if (nextHold >= holds.length) console.log(`  (captured all ${holds.length} holds before the end of the window)`);

  await measure('batches of 10 legs', () => call('POST', '/transactions/batch', { projectId, transfers: Array.from({ length: 10 }, leg) }));
} finally {
  await service.stop();
}
