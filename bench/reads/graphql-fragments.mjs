// CONTRACT §18, bounded work per request (issue 19). Usage, after `npm test` or `tsc -p tsconfig.json`
// (this needs the compiled test support, dist/test/graphql/support/):
//   node_modules/.bin/node bench/reads/graphql-fragments.mjs [--build dist] [--levels 20,24,30,40] [--timeout 30]
//        [--senders 2] [--each 5] [--no-flood]
// 1. The fragment chain (`query{...F0} fragment F0 on Query{...F1 ...F1} … fragment Fn on Query{plan{planCode}}`)
//    judged at each level, each in its own child process killed after --timeout seconds: CPU time
//    of the judgement (POST /graphql through Apollo with the service's rules, no database needed).
// 2. /healthz latency over real HTTP, idle and while --senders clients send --each 24-level chains
//    back to back (each a new text), against the service of --build started on a throw-away
//    embedded PostgreSQL. --levels none skips part 1.
// --build names another compiled tree (e.g. the code before the fix, compiled to dist-before).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startCluster } from '../lib/postgres.js';
import { freePort, NODE, ROOT, serviceNodeFlags, startServer } from '../lib/processes.js';

const { values: opts } = parseArgs({
  options: {
    build: { type: 'string', default: 'dist' },
    levels: { type: 'string', default: '20,24,30,40' },
    timeout: { type: 'string', default: '30' },
    senders: { type: 'string', default: '2' },
    each: { type: 'string', default: '5' },
    'no-flood': { type: 'boolean', default: false },
  },
});
const build = path.resolve(ROOT, opts.build);
const { fragmentChain } = await import(path.join(build, 'test/graphql/support/expanding-documents.js'));
const say = (line) => process.stdout.write(`${line}\n`);
const timeoutS = Number(opts.timeout);

say(`# fragment chain, build ${opts.build}, node ${process.versions.node}, ${os.cpus().length} CPUs, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
say('levels  bytes  expanded fields  status  code               CPU ms  wall ms');
for (const levels of opts.levels === 'none' ? [] : opts.levels.split(',').map(Number)) {
  const query = fragmentChain(levels, 'spreads');
  const started = performance.now();
  const child = spawnSync(NODE, [path.join(build, 'test/graphql/support/judge-documents.js')], {
    input: JSON.stringify([{ name: `chain ${levels}`, transport: 'http', query }]),
    encoding: 'utf8',
    timeout: timeoutS * 1000,
    killSignal: 'SIGKILL',
  });
  const wall = performance.now() - started;
  const bytes = Buffer.byteLength(JSON.stringify({ query }));
  const fields = `2^${levels}`.padEnd(15);
  if (child.signal || child.status !== 0) {
    say(`${String(levels).padEnd(6)}  ${String(bytes).padEnd(5)}  ${fields}  -       -                  >${timeoutS} s, killed (${child.signal ?? `exit ${child.status}`})`);
    continue;
  }
  const judged = JSON.parse(child.stdout).at(-1);
  say(`${String(levels).padEnd(6)}  ${String(bytes).padEnd(5)}  ${fields}  ${String(judged.status).padEnd(6)}  ${String(judged.code).padEnd(17)}  ${judged.cpuMs.toFixed(1).padStart(6)}  ${wall.toFixed(0).padStart(7)} (whole child)`);
}

if (!opts['no-flood']) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-fragments-'));
  chmodSync(tmp, 0o755); // the embedded PostgreSQL runs as user postgres
  const cluster = await startCluster(path.join(tmp, 'pg'));
  let server;
  try {
    const adminToken = `bench-${randomBytes(12).toString('hex')}`;
    const url = await cluster.createMigratedDatabase('bench_fragments');
    server = await startServer('service', [...serviceNodeFlags(), path.join(build, 'src/main.js')], { DATABASE_URL: url, PORT: String(await freePort()), HOST: '127.0.0.1', LEDGER_ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn' });
    const issued = await fetch(`${server.url}/admin/api-keys`, { method: 'POST', headers: { admin_token: adminToken, 'content-type': 'application/json' }, body: JSON.stringify({ owner: 'bench-fragments', plan_code: 'enterprise' }) });
    const apiKey = (await issued.json()).api_key;
    const graphql = async (query) => {
      const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { api_key: apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
      const body = await res.json();
      return `${res.status} ${body.errors?.[0]?.extensions?.code ?? 'ok'} ${body.errors?.[0]?.extensions?.details?.limit ?? ''}`.trim();
    };
    await graphql('{ plan { planCode } }');
    const healthz = async (latencies) => {
      const started = performance.now();
      await (await fetch(`${server.url}/healthz`)).text();
      latencies.push(performance.now() - started);
    };
    const idle = [];
    for (let i = 0; i < 50; i++) await healthz(idle);
    const chain = fragmentChain(24, 'spreads');
    const answers = new Map();
    const during = [];
    let flooding = true;
    const probing = (async () => {
      while (flooding) await healthz(during);
    })();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: Number(opts.senders) }, async (_, sender) => {
        for (let i = 0; i < Number(opts.each); i++) {
          // a new text each time, as an attacker would send: Apollo caches validated documents by their hash
          const answer = await graphql(`${chain} # ${sender}.${i}`);
          answers.set(answer, (answers.get(answer) ?? 0) + 1);
        }
      }),
    );
    const floodMs = performance.now() - started;
    flooding = false;
    await probing;
    const stats = (list) => {
      const sorted = [...list].sort((a, b) => a - b);
      return `n=${sorted.length} p50=${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms max=${sorted.at(-1).toFixed(1)} ms`;
    };
    say('');
    say(`# /healthz over HTTP, service ${opts.build}/src/main.js`);
    say(`idle:                               ${stats(idle)}`);
    say(`during ${opts.senders}×${opts.each} 24-level chains (${(floodMs / 1000).toFixed(1)} s): ${stats(during)}`);
    say(`chain answers: ${[...answers].map(([answer, n]) => `${n}× ${answer}`).join(', ')}`);
  } finally {
    await server?.stop();
    await cluster.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}
