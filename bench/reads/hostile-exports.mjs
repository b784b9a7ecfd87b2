// Hostile exports and verifies against a running service (issue 36, CONTRACT §18 "No request waits without bound").
//   npm run build && node bench/reads/hostile-exports.mjs [--service <checkout>] [--rows 150000]
// One throw-away embedded PostgreSQL (this checkout's migrations; --service must share the schema),
// three hostile owners, each with a project of `rows` transactions (more than the sockets' buffers
// hold as NDJSON, so a reader that stops stays stopped), the first project's 30,000 oldest
// journaled; one polite owner. The service (`--service`'s dist/src/main.js, as `npm start` runs
// it, pool 20) is started on it, then:
//  1. 22 exports whose readers take one chunk and then read nothing (round robin over the three
//     hostile owners), then 33 exports whose clients give up after 500 ms, most while queued;
//  2. 3 s later: the request backends in pg_stat_activity (by state, oldest transaction), the polite
//     owner's GET /projects and /readyz times (cut at 20 s);
//  3. the 22 stalled clients go away; 3 s later the same figures again;
//  4. for 10 s, the first hostile owner keeps 10 verifies and 10 exports (read to the end) running
//     while the polite owner sends GET /projects one after another: its p50, p99, max;
//  5. SIGTERM with 2 fresh stalled exports open: exit code and time (cut at 40 s).
// --latency-only: step 4 alone (on fc157d2, steps 1-3 leave no connection for it).
import http from 'node:http';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { harnessPool, startCluster } from '../lib/postgres.js';
import { freePort, NODE, ROOT, serviceNodeFlags, serviceStartEnv } from '../lib/processes.js';
import { addTransactions, createProject } from '../lib/search-seed.js';

const { values: opts } = parseArgs({ options: { service: { type: 'string', default: ROOT }, rows: { type: 'string', default: '150000' }, 'latency-only': { type: 'boolean', default: false } } });
const checkout = path.resolve(opts.service);
const rows = Number(opts.rows);
const JOURNALED = 30_000;

const tmp = mkdtempSync(path.join(os.tmpdir(), 'ledger-hostile-exports-'));
const cluster = await startCluster(tmp);
let service;
const sockets = new Set();
try {
  const url = await cluster.createMigratedDatabase('hostile');
  const pool = harnessPool(url, 2);
  // createProject gives every owner the same subscription code, which is unique: each gets its own after
  const ownerOf = async (owner) => {
    const project = await createProject(pool, owner);
    await pool.query(`UPDATE owners SET subscription_code = 'SUB_' || id WHERE id = $1`, [owner]);
    return project;
  };
  const hostile = [];
  for (const owner of ['hostile-1', 'hostile-2', 'hostile-3']) {
    const project = await ownerOf(owner);
    await addTransactions(pool, project, 1, rows);
    hostile.push(project);
  }
  // the journal of the first project: its 30,000 oldest transactions, written by the service's journal writer
  await pool.query(
    `INSERT INTO journal_backlog (project_id, transaction_id) SELECT project_id, id FROM (SELECT project_id, id, seq FROM transactions WHERE project_id = $1 ORDER BY seq LIMIT $2) t ORDER BY seq`,
    [hostile[0].projectId, JOURNALED],
  );
  const polite = await ownerOf('polite');
  await pool.query('VACUUM ANALYZE');

  service = await start(url);
  // the journal writer runs when the event numbering pokes it: one posting starts it on the backlog
  const post = (pathname, body) =>
    fetch(`http://127.0.0.1:${service.port}${pathname}`, { method: 'POST', headers: { api_key: polite.apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const vault = await (await post('/wallets/create/system', { projectId: polite.projectId })).json();
  const seeded = await post('/transactions/seed', { projectId: polite.projectId, amount: 1, currency: 'PTS', to: vault.id });
  if (seeded.status !== 201) throw new Error(`seed: ${seeded.status} ${await seeded.text()}`);
  await until(async () => (await pool.query(`SELECT count(*)::int AS n FROM journal_backlog`)).rows[0].n === 0, 180_000).catch(() => undefined);
  const { rows: journal } = await pool.query(`SELECT count(*)::int AS n FROM journal WHERE project_id = $1`, [hostile[0].projectId]);
  console.log(`hostile-exports: ${checkout}; 3 projects of ${rows.toLocaleString('en')} transactions, ${journal[0].n.toLocaleString('en')} of the first journaled; pool 20`);

  if (opts['latency-only']) {
    // step 4 alone: on a service whose pool steps 1-3 leaked, it would measure the leak again
    await latencyUnderLongReads(service.port, hostile[0], polite, journal[0].n);
    process.exitCode = 0;
  } else {
  // 1. 22 stalled readers, then 33 clients that give up while queued
  const stalled = [];
  const statuses = {};
  for (let i = 0; i < 22; i++) stalled.push(stalledExport(service.port, hostile[i % 3], statuses));
  await Promise.all(stalled.map((s) => s.ready));
  const gaveUp = [];
  for (let i = 0; i < 33; i++) gaveUp.push(abandonedExport(service.port, hostile[i % 3], 500, statuses));
  await Promise.all(gaveUp);
  console.log(`answers seen by the 55 hostile clients (status: count; "none": no answer before they stopped or gave up): ${JSON.stringify(statuses)}`);
  await sleep(3_000);
  await report('after 22 stalled + 33 abandoned exports', pool, service.port, polite);

  // 3. the stalled clients go away too
  for (const s of stalled) s.req.destroy();
  await sleep(3_000);
  await report('3 s after the 22 stalled clients went away', pool, service.port, polite);

  // 4. another owner's latency while 10 verifies and 10 exports run
  await latencyUnderLongReads(service.port, hostile[0], polite, journal[0].n);

  // 5. SIGTERM with stalled exports open
  const last = [stalledExport(service.port, hostile[1], {}), stalledExport(service.port, hostile[2], {})];
  await Promise.all(last.map((s) => s.ready));
  const t0 = Date.now();
  service.child.kill('SIGTERM');
  const exit = await Promise.race([new Promise((resolve) => service.child.once('exit', (code, signal) => resolve({ code, signal }))), sleep(40_000).then(() => 'still running after 40 s')]);
  console.log(`SIGTERM with 2 stalled exports open: ${typeof exit === 'string' ? exit : `exit ${JSON.stringify(exit)} after ${((Date.now() - t0) / 1000).toFixed(1)} s`}`);
  if (typeof exit === 'string') service.child.kill('SIGKILL');
  service = undefined;
  for (const s of last) s.req.destroy();
  }
  await pool.end();
} finally {
  for (const socket of sockets) socket.destroy();
  if (service) service.child.kill('SIGKILL');
  await cluster.stop();
  rmSync(tmp, { recursive: true, force: true });
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function until(condition, ms) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(200);
  }
}

/** The service, as `npm start` runs it (node flags and environment), from `checkout`. */
async function start(databaseUrl) {
  const port = await freePort();
  const child = spawn(NODE, [...serviceNodeFlags(), path.join(checkout, 'dist/src/main.js')], {
    cwd: checkout,
    env: { ...process.env, ...serviceStartEnv(), DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', LEDGER_DB_POOL_SIZE: '20' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => /listening on/.test(String(chunk)) && resolve());
    child.once('exit', () => reject(new Error('service exited')));
  });
  child.stdout.resume();
  return { child, port };
}

function get(port, pathname, key) {
  const req = http.get({ host: '127.0.0.1', port, path: pathname, headers: key ? { api_key: key } : {}, agent: false });
  req.on('socket', (socket) => sockets.add(socket));
  req.on('error', () => undefined);
  return req;
}

function count(statuses, status) {
  statuses[status] = (statuses[status] ?? 0) + 1;
}

/** An export whose reader takes its first chunk and then reads nothing; `ready` once it stopped (or was answered with an error). */
function stalledExport(port, project, statuses) {
  const req = get(port, `/transactions/export?projectId=${project.projectId}`, project.apiKey);
  const ready = new Promise((resolve) => {
    const timer = setTimeout(() => (count(statuses, 'none'), resolve()), 3_000); // queued: it stays so
    req.on('response', (res) => {
      clearTimeout(timer);
      count(statuses, res.statusCode);
      if (res.statusCode !== 200) return res.resume().on('end', resolve);
      res.once('data', () => (res.pause(), resolve()));
    });
  });
  return { req, ready };
}

/** An export whose client gives up after `ms` (while it waits behind a full pool, or once answered). */
async function abandonedExport(port, project, ms, statuses) {
  const req = get(port, `/transactions/export?projectId=${project.projectId}`, project.apiKey);
  let answered = false;
  req.on('response', (res) => ((answered = true), count(statuses, res.statusCode), res.resume()));
  await sleep(ms);
  if (!answered) count(statuses, 'none');
  req.destroy();
}

/** Milliseconds of one GET, or the text of its failure; cut at 20 s. */
function timed(port, pathname, key) {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = get(port, pathname, key);
    const timer = setTimeout(() => (req.destroy(), resolve({ ms: 20_000, status: 'no answer in 20 s' })), 20_000);
    req.on('response', (res) => {
      res.resume().on('end', () => (clearTimeout(timer), resolve({ ms: performance.now() - t0, status: res.statusCode })));
    });
    req.on('error', (error) => (clearTimeout(timer), resolve({ ms: performance.now() - t0, status: error.message })));
  });
}

async function report(when, pool, port, polite) {
  const { rows: backends } = await pool.query(
    `SELECT state, count(*)::int AS n, round(extract(epoch FROM max(now() - xact_start))::numeric, 1)::float AS oldest_xact_s
       FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()
      GROUP BY state ORDER BY state`,
  );
  const projects = await timed(port, '/projects', polite.apiKey);
  const ready = await timed(port, '/readyz');
  console.log(`${when}:`);
  console.log(`  backends: ${backends.map((b) => `${b.state} ${b.n}${b.oldest_xact_s === null ? '' : ` (oldest transaction ${b.oldest_xact_s} s)`}`).join(', ')}`);
  console.log(`  another owner's GET /projects: ${projects.status} in ${projects.ms.toFixed(0)} ms; GET /readyz: ${ready.status} in ${ready.ms.toFixed(0)} ms`);
}

async function latencyUnderLongReads(port, project, polite, journaled) {
  const until = Date.now() + 10_000;
  const outcomes = { verify: {}, export: {} };
  const loop = async (kind, pathname) => {
    while (Date.now() < until) {
      const r = await timed(port, pathname, project.apiKey);
      count(outcomes[kind], r.status);
    }
  };
  const loops = [];
  for (let i = 0; i < 10; i++) loops.push(loop('verify', `/projects/${project.projectId}/journal/verify`), loop('export', `/transactions/export?projectId=${project.projectId}`));
  const samples = [];
  while (Date.now() < until) samples.push((await timed(port, '/projects', polite.apiKey)).ms);
  await Promise.all(loops);
  samples.sort((a, b) => a - b);
  const at = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))].toFixed(1);
  console.log(`10 s of 10 verify loops + 10 export loops (one hostile owner, ${journaled.toLocaleString('en')}-entry journal, ${rows.toLocaleString('en')}-row export): answers ${JSON.stringify(outcomes)}`);
  console.log(`  another owner's GET /projects, ${samples.length} in a row: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${samples.at(-1).toFixed(1)} ms`);
}
