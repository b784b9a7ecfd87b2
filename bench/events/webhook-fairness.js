// Fair outbound webhooks (CONTRACT §18): how long project Y's first attempts wait while project
// X's 20 endpoints hang.
//
//   npx tsc -p tsconfig.json && ./node_modules/.bin/node bench/events/webhook-fairness.js [--x-events 20] [--samples 6] [--gap-ms 1000] [--cap-ms 90000] [--out file]
//
// One throw-away embedded PostgreSQL and TWO service processes (dist/src/main.js) on one database,
// production webhook settings (10 s time-out, 32 slots each) but LEDGER_WEBHOOK_ALLOW_PRIVATE=true.
// The receiver is a node:http server in this process: any path under /x/ accepts the request and
// never answers (held until the sender's time-out), /y answers 204 at once.
//
//   1. Project X: 20 endpoints /x/0 … /x/19, then `--x-events` transfers (events × 20 attempts, all hanging).
//   2. Once X's attempts hang on both instances, project Y (one endpoint, /y) posts `--samples`
//      single transfers, `--gap-ms` apart (pacing: they span X's 10 s time-outs), alternating the instances: the delay from each 201
//      (the commit) to the receiver's arrival of that event is one sample (capped at `--cap-ms`:
//      a sample that waits longer is reported as "> cap").
//   3. Reports p50 / max of the samples and the most requests ever open at once to one X endpoint.
//
// The same script measured the code before the change: copy it into a checkout of the older
// commit (bench/ of it), build there, and run it there.

import { createServer } from 'node:http';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execSync } from 'node:child_process';
import { call } from '../lib/http.js';
import { harnessPool, startCluster } from '../lib/postgres.js';
import { freePort, ROOT, startServer } from '../lib/processes.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const X_EVENTS = Number(option('x-events', 20));
const SAMPLES = Number(option('samples', 6));
const CAP_MS = Number(option('cap-ms', 90_000));
const GAP_MS = Number(option('gap-ms', 1_000));
const OUT = option('out', null);
const ADMIN = 'bench-fairness-admin-token';

const lines = [];
const log = (line) => {
  console.log(line);
  lines.push(line);
};
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const now = () => performance.timeOrigin + performance.now();

function startReceiver() {
  const state = { open: new Map(), mostOpen: new Map(), arrivals: new Map(), waiters: new Set() };
  const changed = () => {
    for (const wake of state.waiters) wake();
  };
  const server = createServer((req, res) => {
    const p = req.url;
    const open = (state.open.get(p) ?? 0) + 1;
    state.open.set(p, open);
    state.mostOpen.set(p, Math.max(open, state.mostOpen.get(p) ?? 0));
    res.on('close', () => state.open.set(p, state.open.get(p) - 1));
    req.resume();
    req.on('end', () => {
      if (p === '/y') {
        state.arrivals.set(String(req.headers['webhook-id']), now());
        res.writeHead(204).end();
      }
      changed();
    });
  });
  const until = (condition, timeoutMs) =>
    new Promise((resolve) => {
      const check = () => {
        if (!condition(state)) return;
        finish(true);
      };
      const timer = setTimeout(() => finish(false), timeoutMs);
      const finish = (met) => {
        clearTimeout(timer);
        state.waiters.delete(check);
        resolve(met);
      };
      state.waiters.add(check);
      check();
    });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({ origin: `http://127.0.0.1:${server.address().port}`, state, until, close: () => (server.closeAllConnections(), new Promise((r) => server.close(r))) }),
    );
  });
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-fairness-'));
  const cluster = await startCluster(dataDir);
  const receiver = await startReceiver();
  const services = [];
  try {
    const url = await cluster.createMigratedDatabase('bench_fairness');
    const sql = harnessPool(url, 2);
    for (let i = 0; i < 2; i++) {
      services.push(
        await startServer(`service-${i}`, ['dist/src/main.js'], {
          DATABASE_URL: url,
          PORT: String(await freePort()),
          HOST: '127.0.0.1',
          LEDGER_ADMIN_TOKEN: ADMIN,
          LOG_LEVEL: 'error',
          LEDGER_WEBHOOK_ALLOW_PRIVATE: 'true',
        }),
      );
    }
    const apiKey = (await call(services[0].url, 'POST', '/admin/api-keys', { headers: { admin_token: ADMIN }, body: { owner: 'bench', plan_code: 'enterprise' } })).json.api_key;
    const api = (i, method, p, body) => call(services[i % 2].url, method, p, { headers: { api_key: apiKey }, body });
    const project = async (name) => {
      const projectId = (await api(0, 'POST', '/projects', { name })).json.id;
      await api(0, 'POST', '/assets', { name: 'Points', symbol: 'PTS', fractions: 2, projectId });
      const system = (await api(0, 'POST', '/wallets/create/system', { projectId })).json;
      const customer = (await api(0, 'POST', '/wallets/create/customer', { projectId })).json;
      await api(0, 'POST', '/transactions/seed', { amount: 1_000_000_000, currency: 'PTS', projectId, to: system.id });
      return { projectId, system, customer };
    };
    const x = await project('X (hangs)');
    const y = await project('Y (healthy)');
    for (let i = 0; i < 20; i++) await api(i, 'POST', '/webhook-endpoints', { projectId: x.projectId, url: `${receiver.origin}/x/${i}` });
    await api(1, 'POST', '/webhook-endpoints', { projectId: y.projectId, url: `${receiver.origin}/y` });
    const commit = (() => {
      try {
        return execSync('git rev-parse --short HEAD', { cwd: ROOT }).toString().trim();
      } catch {
        return 'unknown';
      }
    })();
    log(`webhook fairness: ${ROOT} (${commit}); 2 instances × LEDGER_WEBHOOK_CONCURRENCY 32 (default), time-out 10 s (default)`);
    log(`  X: 20 endpoints that never answer, ${X_EVENTS} events (${X_EVENTS * 20} attempts wanted); Y: 1 endpoint answering 204, ${SAMPLES} single transfers ${GAP_MS} ms apart`);

    for (let done = 0; done < X_EVENTS; done += 100) {
      const legs = Array.from({ length: Math.min(100, X_EVENTS - done) }, () => ({ amount: 0.01, currency: 'PTS', from: x.system.id, to: x.customer.id }));
      await api(done / 100, 'POST', '/transactions/batch', { projectId: x.projectId, transfers: legs });
    }
    const openX = (s) => [...s.open].filter(([p]) => p.startsWith('/x/')).reduce((sum, [, n]) => sum + n, 0);
    await receiver.until((s) => openX(s) >= 16, 10_000);
    log(`  X's attempts open at the receiver when Y starts: ${openX(receiver.state)}`);

    const delays = [];
    let missed = 0;
    for (let i = 0; i < SAMPLES; i++) {
      const res = await api(i, 'POST', '/transactions', { amount: 0.01, currency: 'PTS', from: y.system.id, to: y.customer.id, projectId: y.projectId });
      const committed = now();
      const [{ id: eventId }] = (await sql.query(`SELECT id FROM events WHERE subject_id = $1 AND type = 'transaction.posted'`, [res.json.transaction?.id ?? res.json.id])).rows;
      const arrived = await receiver.until((s) => s.arrivals.has(eventId), CAP_MS);
      if (arrived) delays.push(receiver.state.arrivals.get(eventId) - committed);
      else missed += 1;
      await new Promise((resolve) => setTimeout(resolve, GAP_MS));
      log(`    sample ${i + 1}: ${arrived ? `${Math.round(delays.at(-1))} ms` : `> ${CAP_MS} ms (not delivered yet)`}; X open ${openX(receiver.state)}`);
    }
    const most = Math.max(...[...receiver.state.mostOpen].filter(([p]) => p.startsWith('/x/')).map(([, n]) => n));
    const all = [...delays, ...Array(missed).fill(Infinity)];
    const fmt = (ms) => (ms === Infinity ? `> ${CAP_MS} ms` : `${Math.round(ms)} ms`);
    log(`  Y first-attempt delay after commit: p50 ${fmt(percentile(all, 0.5))}, max ${fmt(Math.max(...all))} (${SAMPLES} samples, ${missed} over the cap)`);
    log(`  most attempts open at once to one X endpoint: ${most}`);
    await sql.end();
  } finally {
    for (const service of services) await service.stop();
    await receiver.close();
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (OUT) appendFileSync(OUT, `${lines.join('\n')}\n\n`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
