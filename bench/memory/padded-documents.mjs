// Resident memory of the service after distinct comment-padded GraphQL documents (CONTRACT §18,
// "Memory is bounded in bytes": no sequence of requests raises RSS by more than 256 MiB over the
// level after warm-up, 100 KiB comment-padded documents included; issue 36).
//   npx tsc -p tsconfig.json && node bench/memory/padded-documents.mjs [--root DIR] [--documents 150] [--warm 20]
// One throw-away embedded PostgreSQL with this checkout's migrations; the service of `--root`
// (default: this checkout; its dist/src/main.js, compiled) runs with `npm start`'s node flags. A
// free-plan key reads `projects` with documents of ≈ 100 KiB (the body limit), each a distinct
// operation followed by `#` comment lines (the padding that costs graphql-js most per byte: one
// token a line). `warm` such documents first, then VmRSS ("warm"); then `documents` more, one
// at a time, VmRSS sampled every 20 ms (peak) and read 2 s after the last ("after").
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startCluster } from '../lib/postgres.js';
import { freePort, ROOT, serviceNodeFlags, serviceStartEnv, startServer } from '../lib/processes.js';

const { values: opts } = parseArgs({ options: { root: { type: 'string', default: ROOT }, documents: { type: 'string', default: '150' }, warm: { type: 'string', default: '20' } } });
const root = path.resolve(opts.root);
const documents = Number(opts.documents);
const warm = Number(opts.warm);
const LIMIT_MIB = 256;
const BODY_LIMIT = 100 * 1024;
const ADMIN = 'padded-documents-admin';

const rssMiB = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A distinct operation padded with `#` lines to just under the body limit (JSON-encoded: `#\n` is 3 bytes). */
export function paddedDocument(i) {
  const operation = `query Padded${i} { projects(first: 1) { edges { node { id name } } } }\n`;
  const lines = Math.floor((BODY_LIMIT - 64 - operation.length) / 3);
  return operation + '#\n'.repeat(lines);
}

async function post(base, key, body) {
  const res = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', api_key: key }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'ledger-padded-'));
const cluster = await startCluster(tmp);
let service;
try {
  const url = await cluster.createMigratedDatabase('padded');
  service = await startServer('service', [...serviceNodeFlags(), path.join(root, 'dist/src/main.js')], { ...serviceStartEnv(), DATABASE_URL: url, PORT: String(await freePort()), HOST: '127.0.0.1', LEDGER_ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'warn' });
  const base = service.url;
  const issued = await fetch(`${base}/admin/api-keys`, { method: 'POST', headers: { 'content-type': 'application/json', admin_token: ADMIN }, body: JSON.stringify({ owner: 'padded-owner', plan_code: 'free' }) });
  const { api_key: key } = await issued.json();
  const created = await fetch(`${base}/projects`, { method: 'POST', headers: { 'content-type': 'application/json', api_key: key }, body: JSON.stringify({ name: 'Padded' }) });
  if (created.status !== 201) throw new Error(`project: ${created.status}`);
  const sample = JSON.stringify({ query: paddedDocument(0) });
  console.log(`padded-documents: ${root} (${serviceNodeFlags().join(' ')}), pid ${service.pid}; body ${sample.length} bytes, query ${paddedDocument(0).length} characters`);
  const start = rssMiB(service.pid);
  for (let i = 0; i < warm; i++) {
    const answer = await post(base, key, { query: paddedDocument(1_000_000 + i) });
    if (answer.status !== 200 || answer.text.includes('"errors"')) throw new Error(`warm-up: ${answer.status} ${answer.text.slice(0, 300)}`);
  }
  await pause(2000);
  const warmed = rssMiB(service.pid);
  let peak = warmed;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(service.pid))), 20);
  const started = Date.now();
  const statuses = {};
  const marks = [];
  for (let i = 0; i < documents; i++) {
    const answer = await post(base, key, { query: paddedDocument(i) });
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    if ((i + 1) % 25 === 0) marks.push(`${i + 1}: ${rssMiB(service.pid).toFixed(0)}`);
  }
  const seconds = (Date.now() - started) / 1000;
  await pause(2000);
  clearInterval(sampler);
  const after = rssMiB(service.pid);
  peak = Math.max(peak, after);
  console.log(`RSS MiB: at start ${start.toFixed(1)}, after ${warm} warm-up documents ${warmed.toFixed(1)}, after ${documents} more ${after.toFixed(1)} (peak ${peak.toFixed(1)})`);
  console.log(`RSS MiB after n documents: ${marks.join(', ')}`);
  console.log(`growth over warm-up: ${(after - warmed).toFixed(1)} MiB (peak ${(peak - warmed).toFixed(1)} MiB), limit ${LIMIT_MIB} MiB: ${peak - warmed < LIMIT_MIB ? 'within' : 'OVER'}`);
  console.log(`statuses: ${JSON.stringify(statuses)}; ${documents} documents in ${seconds.toFixed(1)} s (${((seconds * 1000) / documents).toFixed(1)} ms each)`);
} finally {
  await service?.stop();
  await cluster.stop();
  rmSync(tmp, { recursive: true, force: true });
}
