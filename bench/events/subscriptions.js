// GraphQL subscriptions (CONTRACT §16): what they cost and how fast they are.
//
//   npm run bench:subscriptions -- [latency] [throughput] [memory] [--duration 10] [--rounds 2] [--connections 64] [--subscribers 100] [--idle 1000]
//
// One throw-away embedded PostgreSQL (bench/lib/postgres.js) and the service as a child process
// (default settings). The subscribers are bare graphql-transport-ws clients in this process.
//
// latency     commit → subscriber: a `ledgerEvents` subscriber on the project receives each
//             transfer's event; latency = arrival − the event's `createdAt` (the posting's
//             database timestamp, same host clock, millisecond precision). Unloaded: 300
//             transfers one after the other, each awaited with its event (also timed from the
//             POST's start). Loaded: every event of a `--connections` transfer load (autocannon).
// throughput  POST /transactions (random customer → other customer) with `--subscribers` connected
//             walletChanged subscribers (one socket each, on distinct customers of the load) versus
//             none, alternating rounds in one run: ratio of 2xx per second.
// memory      (first, on the fresh service) its RSS and V8 heap before and after opening `--idle`
//             idle subscriptions (one socket each, walletChanged on customer wallets that see no
//             traffic), each after a full garbage collection (the service runs with --inspect).

import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import WebSocket from 'ws';
import { call, parallel } from '../lib/http.js';
import { startCluster } from '../lib/postgres.js';
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
const SUBSCRIBERS = option('subscribers', 100);
const IDLE = option('idle', 1000);
const CUSTOMERS = 500;
const ADMIN = 'bench-subscriptions-admin-token';

const log = (...line) => console.log(...line);
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const ms = (v) => `${v.toFixed(1)} ms`;

/** A bare graphql-transport-ws client: `onNext(id, payload)` for every `next` message. */
async function connect(wsUrl, apiKey, onNext = () => {}) {
  const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const acked = new Promise((resolve, reject) => {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.type === 'connection_ack') resolve();
      else if (message.type === 'next') onNext(message.id, message.payload);
      else if (message.type === 'ping') socket.send('{"type":"pong"}');
      else if (message.type === 'error') console.error('subscription error', JSON.stringify(message.payload));
    });
    socket.once('close', (code) => reject(new Error(`closed ${code}`)));
  });
  socket.send(JSON.stringify({ type: 'connection_init', payload: { api_key: apiKey } }));
  await acked;
  return {
    socket,
    subscribe: (id, query, variables) => socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query, variables } })),
    close: () => new Promise((resolve) => (socket.readyState === WebSocket.CLOSED ? resolve() : (socket.once('close', resolve), socket.close(1000)))),
  };
}

const LEDGER_EVENTS = 'subscription($p: ID!) { ledgerEvents(projectId: $p, types: ["transaction.posted"]) { seq createdAt data } }';
const WALLET_CHANGED = 'subscription($id: ID!) { walletChanged(walletId: $id) { id balances { currency balance available } } }';

/** The service's open subscriptions, from its metrics (a subscription is in place once counted). */
async function openSubscriptions(base) {
  const text = (await call(base, 'GET', '/metrics')).text;
  return Number(/^ledger_graphql_subscriptions (\d+)/m.exec(text)?.[1] ?? 0);
}

async function untilSubscriptions(base, count) {
  for (let i = 0; i < 500; i++) {
    if ((await openSubscriptions(base)) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`fewer than ${count} subscriptions opened`);
}

/** V8's used heap, from the service's own metrics (prom-client's process defaults). */
async function heapMiB(base) {
  const text = (await call(base, 'GET', '/metrics')).text;
  return Number(/^nodejs_heap_size_used_bytes (\d+)/m.exec(text)[1]) / 2 ** 20;
}

/** A full garbage collection in the service, through its inspector (started with --inspect on `port`). */
async function collectGarbage(inspectorPort) {
  const [target] = await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json();
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  await new Promise((resolve) => {
    socket.on('message', (data) => JSON.parse(String(data)).id === 1 && resolve());
    socket.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }));
  });
  socket.close();
}

async function rssMiB(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

function transferLoad(base, apiKey, p, seconds) {
  const n = p.customers.length;
  const body = () => {
    const from = Math.floor(Math.random() * n);
    let to = Math.floor(Math.random() * (n - 1));
    if (to >= from) to += 1;
    return JSON.stringify({ amount: 0.01, currency: 'PTS', from: p.customers[from].id, to: p.customers[to].id, projectId: p.projectId });
  };
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        duration: seconds,
        timeout: 10,
        requests: [{ method: 'POST', path: '/transactions', headers: { 'content-type': 'application/json', api_key: apiKey }, setupRequest: (req) => ({ ...req, body: body() }) }],
      },
      (error, res) => (error ? reject(error) : resolve({ okPerSecond: res['2xx'] / res.duration, ok: res['2xx'], p50: res.latency.p50, p99: res.latency.p99, non2xx: res.non2xx, errors: res.errors })),
    );
    instance.on('error', () => undefined);
  });
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-subscriptions-'));
  const cluster = await startCluster(dataDir);
  let service;
  const clients = [];
  try {
    const url = await cluster.createMigratedDatabase('bench_subscriptions');
    const inspectorPort = await freePort();
    service = await startServer('service', [`--inspect=127.0.0.1:${inspectorPort}`, 'dist/src/main.js'], { DATABASE_URL: url, PORT: String(await freePort()), HOST: '127.0.0.1', LEDGER_ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'warn' });
    const base = service.url;
    const wsUrl = `${base.replace(/^http/, 'ws')}/graphql`;
    const apiKey = (await call(base, 'POST', '/admin/api-keys', { headers: { admin_token: ADMIN }, body: { owner: 'bench', plan_code: 'enterprise' } })).json.api_key;
    const api = (method, p, body) => call(base, method, p, { headers: { api_key: apiKey }, body });
    const projectId = (await api('POST', '/projects', { name: 'subscriptions' })).json.id;
    await api('POST', '/assets', { name: 'Points', symbol: 'PTS', fractions: 2, projectId });
    const system = (await api('POST', '/wallets/create/system', { projectId })).json;
    const customers = await parallel(CUSTOMERS, 16, async () => (await api('POST', '/wallets/create/customer', { projectId })).json);
    const idleWallets = wanted('memory') ? await parallel(100, 16, async () => (await api('POST', '/wallets/create/customer', { projectId })).json) : [];
    await api('POST', '/transactions/seed', { amount: 100_000_000, currency: 'PTS', projectId, to: system.id });
    await parallel(CUSTOMERS, 16, (i) => api('POST', '/transactions', { amount: 1000, currency: 'PTS', from: system.id, to: customers[i].id, projectId }));
    const p = { projectId, customers };
    const load = os.loadavg().map((v) => v.toFixed(2)).join(' ');
    log(`service ${base} (pid ${service.pid}); ${CUSTOMERS} funded customers; ${os.cpus().length} CPUs, load average ${load} before the runs`);
    const results = {};

    if (wanted('memory')) {
      await collectGarbage(inspectorPort);
      const before = await rssMiB(service.pid);
      const heapBefore = await heapMiB(base);
      const opened = await parallel(IDLE, 32, async (i) => {
        const client = await connect(wsUrl, apiKey);
        client.subscribe('w', WALLET_CHANGED, { id: idleWallets[i % idleWallets.length].id });
        return client;
      });
      clients.push(...opened);
      await untilSubscriptions(base, IDLE);
      await collectGarbage(inspectorPort);
      const after = await rssMiB(service.pid);
      const heapAfter = await heapMiB(base);
      log(`\n[memory] service RSS ${before.toFixed(1)} MiB before, ${after.toFixed(1)} MiB with ${IDLE} idle subscriptions (one socket each): +${(after - before).toFixed(1)} MiB, ${(((after - before) * 1024) / IDLE).toFixed(1)} KiB each; V8 heap used ${heapBefore.toFixed(1)} → ${heapAfter.toFixed(1)} MiB (+${(((heapAfter - heapBefore) * 1024) / IDLE).toFixed(1)} KiB each)`);
      results.memory = { beforeMiB: before, afterMiB: after, perSubscriptionKiB: ((after - before) * 1024) / IDLE, heapPerSubscriptionKiB: ((heapAfter - heapBefore) * 1024) / IDLE };
      await Promise.all(opened.map((c) => c.close()));
    }
    if (wanted('latency')) {
      const arrivals = [];
      let waiting = null;
      const listener = await connect(wsUrl, apiKey, (_id, payload) => {
        const event = payload.data?.ledgerEvents;
        if (!event) return console.error('unexpected', JSON.stringify(payload));
        const now = Date.now();
        arrivals.push(now - Date.parse(event.createdAt));
        waiting?.(now);
      });
      clients.push(listener);
      listener.subscribe('e', LEDGER_EVENTS, { p: String(projectId) });
      await untilSubscriptions(base, 1);
      for (let i = 0; i < 20; i++) await api('POST', '/transactions', { amount: 0.01, currency: 'PTS', from: customers[0].id, to: customers[1].id, projectId }); // warm
      await new Promise((resolve) => setTimeout(resolve, 500));
      arrivals.length = 0;
      const fromRequest = [];
      for (let i = 0; i < 300; i++) {
        const arrived = new Promise((resolve) => (waiting = resolve));
        const started = Date.now();
        await api('POST', '/transactions', { amount: 0.01, currency: 'PTS', from: customers[i % 2].id, to: customers[1 - (i % 2)].id, projectId });
        fromRequest.push((await arrived) - started);
      }
      waiting = null;
      const unloaded = [...arrivals];
      log(`\n[latency] unloaded, 300 sequential transfers: commit → subscriber p50 ${ms(percentile(unloaded, 0.5))}, p99 ${ms(percentile(unloaded, 0.99))}, max ${ms(Math.max(...unloaded))}; from the POST's start p50 ${ms(percentile(fromRequest, 0.5))}, p99 ${ms(percentile(fromRequest, 0.99))}`);
      arrivals.length = 0;
      const run = await transferLoad(base, apiKey, p, DURATION);
      // the events of the last requests are still on their way
      for (let i = 0; i < 100 && arrivals.length < run.ok; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      const loaded = [...arrivals];
      log(`[latency] under ${CONNECTIONS}-connection transfer load (${run.okPerSecond.toFixed(0)} transfers/s, ${run.ok} events expected, ${loaded.length} received): commit → subscriber p50 ${ms(percentile(loaded, 0.5))}, p99 ${ms(percentile(loaded, 0.99))}, max ${ms(Math.max(...loaded))}`);
      results.latency = { unloaded: { p50: percentile(unloaded, 0.5), p99: percentile(unloaded, 0.99) }, loaded: { p50: percentile(loaded, 0.5), p99: percentile(loaded, 0.99), transfersPerSecond: run.okPerSecond, received: loaded.length, expected: run.ok } };
      await listener.close();
      clients.splice(clients.indexOf(listener), 1);
    }

    if (wanted('throughput')) {
      log(`\n[throughput] ${CONNECTIONS} connections, ${DURATION} s × ${ROUNDS} rounds per arm, alternating: no subscriber vs ${SUBSCRIBERS} walletChanged subscribers (one socket each, on ${SUBSCRIBERS} of the ${CUSTOMERS} customers the load moves money between)`);
      let messages = 0;
      const open = async () => {
        const opened = await parallel(SUBSCRIBERS, 16, async (i) => {
          const client = await connect(wsUrl, apiKey, () => (messages += 1));
          client.subscribe('w', WALLET_CHANGED, { id: customers[i].id });
          return client;
        });
        await untilSubscriptions(base, SUBSCRIBERS);
        return opened;
      };
      await transferLoad(base, apiKey, p, 2); // warm
      const runs = { none: [], subscribed: [] };
      for (let round = 1; round <= ROUNDS; round++) {
        for (const arm of ['none', 'subscribed']) {
          const opened = arm === 'subscribed' ? await open() : [];
          messages = 0;
          const r = await transferLoad(base, apiKey, p, DURATION);
          r.messages = messages;
          runs[arm].push(r);
          log(`  round ${round} ${arm.padEnd(10)} ${r.okPerSecond.toFixed(0)} transfers/s  p50 ${r.p50} ms  p99 ${r.p99} ms  non-2xx ${r.non2xx}  errors ${r.errors}${arm === 'subscribed' ? `  messages ${messages}` : ''}`);
          await Promise.all(opened.map((c) => c.close()));
        }
      }
      const mean = (rs) => rs.reduce((s, r) => s + r.okPerSecond, 0) / rs.length;
      results.throughput = { none: mean(runs.none), subscribed: mean(runs.subscribed), ratio: mean(runs.subscribed) / mean(runs.none) };
      log(`  => with ${SUBSCRIBERS} subscribers / none = ${results.throughput.ratio.toFixed(3)} (${results.throughput.subscribed.toFixed(0)} vs ${results.throughput.none.toFixed(0)} transfers/s)`);
    }

    log(`\nload average at the end ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}`);
    log(JSON.stringify(results));
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    await service?.stop();
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
