// Fair outbound webhooks between owners (CONTRACT §18, clarification of part three): how long a
// prompt endpoint of one owner waits for its first attempts while three other owners, each with
// four projects of five endpoints that never answer, keep every delivery slot they can get.
//
//   npx tsc -p tsconfig.json && ./node_modules/.bin/node bench/events/webhook-fairness-owners.js [--owners 3] [--projects 4] [--endpoints 5] [--events 20] [--samples 12] [--gap-ms 1000] [--cap-ms 90000] [--out file]
//
// One throw-away embedded PostgreSQL and TWO service processes (dist/src/main.js) on one database,
// production webhook settings (10 s time-out, 32 slots each) but LEDGER_WEBHOOK_ALLOW_PRIVATE=true.
// The receiver is a node:http server in this process: any path under /h/ accepts the request and
// never answers (held until the sender's time-out), /y answers 204 at once.
//
//   1. Owners H0 … H(n-1) (one API key each): `--projects` projects × `--endpoints` endpoints at
//      /h/<owner>/<project>/<endpoint>, then `--events` transfers per project, in one batch
//      (every endpoint × event an attempt that hangs).
//   2. Once hanging attempts are open on both instances, owner Y (a key of its own; one project,
//      one endpoint /y) posts `--samples` single transfers, `--gap-ms` apart, alternating the
//      instances: the delay from each 201 (the commit) to the receiver's arrival of that event is
//      one sample (capped at `--cap-ms`: a sample that waits longer is reported as "> cap").
//   3. Reports p50 / max of the samples, how many passed 5 s, and the most requests ever open at
//      once to one hanging endpoint.
//
// The same script measures the code before the change: run it from a checkout of the older commit
// (copy it into that checkout's bench/, build there, run there).

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
const OWNERS = Number(option('owners', 3));
const PROJECTS = Number(option('projects', 4));
const ENDPOINTS = Number(option('endpoints', 5));
const EVENTS = Number(option('events', 20));
const SAMPLES = Number(option('samples', 12));
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
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-fairness-owners-'));
  const cluster = await startCluster(dataDir);
  const receiver = await startReceiver();
  const services = [];
  try {
    const url = await cluster.createMigratedDatabase('bench_fairness_owners');
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
    const keyOf = async (owner) => (await call(services[0].url, 'POST', '/admin/api-keys', { headers: { admin_token: ADMIN }, body: { owner, plan_code: 'enterprise' } })).json.api_key;
    const api = (apiKey, i, method, p, body) => call(services[i % 2].url, method, p, { headers: { api_key: apiKey }, body });
    const project = async (apiKey, name) => {
      const projectId = (await api(apiKey, 0, 'POST', '/projects', { name })).json.id;
      await api(apiKey, 0, 'POST', '/assets', { name: 'Points', symbol: 'PTS', fractions: 2, projectId });
      const system = (await api(apiKey, 0, 'POST', '/wallets/create/system', { projectId })).json;
      const customer = (await api(apiKey, 0, 'POST', '/wallets/create/customer', { projectId })).json;
      await api(apiKey, 0, 'POST', '/transactions/seed', { amount: 1_000_000_000, currency: 'PTS', projectId, to: system.id });
      return { apiKey, projectId, system, customer };
    };
    const hanging = [];
    for (let o = 0; o < OWNERS; o++) {
      const apiKey = await keyOf(`bench-hangs-${o}`);
      for (let p = 0; p < PROJECTS; p++) {
        const h = await project(apiKey, `H${o}.${p} (hangs)`);
        for (let e = 0; e < ENDPOINTS; e++) await api(apiKey, e, 'POST', '/webhook-endpoints', { projectId: h.projectId, url: `${receiver.origin}/h/${o}/${p}/${e}` });
        hanging.push(h);
      }
    }
    const yKey = await keyOf('bench-prompt');
    const y = await project(yKey, 'Y (prompt)');
    await api(yKey, 1, 'POST', '/webhook-endpoints', { projectId: y.projectId, url: `${receiver.origin}/y` });
    const commit = (() => {
      try {
        return execSync('git rev-parse --short HEAD', { cwd: ROOT }).toString().trim();
      } catch {
        return 'unknown';
      }
    })();
    const perProject = ENDPOINTS * EVENTS;
    log(`webhook fairness between owners: ${ROOT} (${commit}); 2 instances × LEDGER_WEBHOOK_CONCURRENCY 32 (default), time-out 10 s (default)`);
    log(`  ${OWNERS} owners × ${PROJECTS} projects × ${ENDPOINTS} endpoints that never answer, ${EVENTS} events per project (${perProject * OWNERS * PROJECTS} attempts wanted)`);
    log(`  owner Y: 1 project, 1 endpoint answering 204, ${SAMPLES} single transfers ${GAP_MS} ms apart`);

    await Promise.all(
      hanging.map((h, i) =>
        api(h.apiKey, i, 'POST', '/transactions/batch', { projectId: h.projectId, transfers: Array.from({ length: EVENTS }, () => ({ amount: 0.01, currency: 'PTS', from: h.system.id, to: h.customer.id })) }),
      ),
    );
    const openH = (s) => [...s.open].filter(([p]) => p.startsWith('/h/')).reduce((sum, [, n]) => sum + n, 0);
    await receiver.until((s) => openH(s) >= 32, 10_000);
    log(`  hanging attempts open at the receiver when Y starts: ${openH(receiver.state)}`);

    const delays = [];
    let missed = 0;
    for (let i = 0; i < SAMPLES; i++) {
      const res = await api(yKey, i, 'POST', '/transactions', { amount: 0.01, currency: 'PTS', from: y.system.id, to: y.customer.id, projectId: y.projectId });
      const committed = now();
      const [{ id: eventId }] = (await sql.query(`SELECT id FROM events WHERE subject_id = $1 AND type = 'transaction.posted'`, [res.json.transaction?.id ?? res.json.id])).rows;
      const arrived = await receiver.until((s) => s.arrivals.has(eventId), CAP_MS);
      if (arrived) delays.push(receiver.state.arrivals.get(eventId) - committed);
      else missed += 1;
      log(`    sample ${i + 1}: ${arrived ? `${Math.round(delays.at(-1))} ms` : `> ${CAP_MS} ms (not delivered yet)`}; hanging open ${openH(receiver.state)}`);
      await new Promise((resolve) => setTimeout(resolve, GAP_MS));
    }
    const most = Math.max(...[...receiver.state.mostOpen].filter(([p]) => p.startsWith('/h/')).map(([, n]) => n));
    const all = [...delays, ...Array(missed).fill(Infinity)];
    const fmt = (ms) => (ms === Infinity ? `> ${CAP_MS} ms` : `${Math.round(ms)} ms`);
    log(`  Y first-attempt delay after commit: p50 ${fmt(percentile(all, 0.5))}, max ${fmt(Math.max(...all))}; ${all.filter((d) => d > 5_000).length} of ${SAMPLES} past 5 s (${missed} over the cap)`);
    log(`  most attempts open at once to one hanging endpoint: ${most}`);
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
