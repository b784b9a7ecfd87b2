// Second starts of two or more checkouts, alternated: each runs its own package.json start line (its
// bundle, its node flags) on a data directory that its own first start made, so a
// change to the bundle or to the cluster (pg_hba, settings) is compared on like clusters. Prints
// the medians of the wall time to `listening on` (without npm, ≈ 0.3 s, the same for all) and of
// the service's `start-up phases` (docs/guides/operations.md, "Start-up").
//
//   node bench/startup/startup-ab.mjs [--rounds 8] NAME=CHECKOUT [NAME=CHECKOUT ...]
//   e.g. node bench/startup/startup-ab.mjs main=/work/main branch=/work/wt/branch
//
// Needs a build in each checkout (`npm run build`). Run it under the machine's benchmark lock.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 8;
const specs = args.filter((arg, i) => arg.includes('=') && i !== roundsAt + 1);
const tmp = mkdtempSync(path.join(tmpdir(), 'startup-ab-'));
chmodSync(tmp, 0o755); // the postgres user reaches its data directories inside
const variants = specs.map((spec) => {
  const [name, root] = spec.split(/=(.*)/s);
  return { name, root: path.resolve(root), dataDir: path.join(tmp, name) };
});

/** package.json's start line, run as npm runs it: through sh, the checkout's node_modules/.bin first on the PATH. */
function start(variant) {
  const { start: line } = JSON.parse(readFileSync(path.join(variant.root, 'package.json'), 'utf8')).scripts;
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn('/bin/sh', ['-c', line], { // the line ends in `exec node …`: the child is the service
      cwd: variant.root,
      env: { ...process.env, PATH: `${path.join(variant.root, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}`, LEDGER_DATA_DIR: variant.dataDir, PORT: '0', HOST: '127.0.0.1', LEDGER_ADMIN_TOKEN: 'startup-ab-admin-token', DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let wall;
    const onData = (chunk) => {
      out += chunk;
      if (wall === undefined && out.includes('listening on')) {
        wall = performance.now() - t0;
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', () => {
      const phases = out.match(/"startMs":(\{[^}]*\})/);
      if (wall === undefined || !phases) reject(new Error(`${variant.name}: no start-up line\n${out}`));
      else resolve({ wall, ...JSON.parse(phases[1]) });
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = Object.fromEntries(variants.map((v) => [v.name, []]));
try {
  for (const variant of variants) await start(variant); // each first start: its cluster, its compile cache
  for (let round = 0; round < rounds; round++) for (const variant of variants) results[variant.name].push(await start(variant));
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
console.log(`${rounds} second starts each, alternated; medians in ms`);
for (const { name } of variants) {
  const rs = results[name];
  const phases = ['modules', 'database', 'orm', 'migrate', 'app', 'durable', 'process'].map((p) => `${p} ${median(rs.map((r) => r[p] ?? 0))}`).join(', ');
  console.log(`${name.padEnd(12)} wall ${Math.round(median(rs.map((r) => r.wall)))}; ${phases}; process per round: ${rs.map((r) => r.process).join(' ')}`);
}
