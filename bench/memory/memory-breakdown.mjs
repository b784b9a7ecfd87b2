// Where a running service's resident memory is: samples the serving node process (the one `npm start`
// runs from this checkout, or --pid) every --every seconds and prints one line per sample — VmRSS split
// into anonymous and file-backed pages, threads, and V8's heap by space from the service's own
// GET /metrics (prom-client's process metrics) — then, at the end (Ctrl-C or --for seconds), the
// sample with the largest VmRSS and the process's largest mappings (/proc/<pid>/smaps).
//
//   node bench/memory/memory-breakdown.mjs [--pid N] [--project DIR] [--every 1] [--for 600]
//
// Run it beside shared/perf (`node /tmp/perf/run.mjs --project $PWD …`): it waits for the service to
// appear and follows it until it exits.
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const project = path.resolve(opt('project', process.cwd()));
const everyMs = Number(opt('every', 1)) * 1000;
const untilMs = Date.now() + Number(opt('for', 3600)) * 1000;
const MiB = 1024 * 1024;

const read = (file) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

/** The node process running scripts/start.mjs from `project` (npm's own process runs npm-cli.js). */
function findServing() {
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const cmd = read(`/proc/${name}/cmdline`);
    // node itself (not the sh of package.json's line before its exec), serving (its worker threads up)
    if (!cmd || !cmd.startsWith('node\0') || !cmd.includes('scripts/start.mjs')) continue;
    if (Number(read(`/proc/${name}/status`)?.match(/^Threads:\s+(\d+)/m)?.[1]) < 7) continue;
    try {
      if (fs.readlinkSync(`/proc/${name}/cwd`) === project) return Number(name);
    } catch {
      // gone, or not ours
    }
  }
  return null;
}

function kib(text, key) {
  const m = text?.match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'));
  return m ? Number(m[1]) : null;
}

async function heapSpaces(port) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(2000) });
    const text = await res.text();
    const out = {};
    for (const m of text.matchAll(/^nodejs_heap_space_size_(total|used)_bytes\{space="(\w+)"\} (\d+)/gm)) {
      out[`${m[2]}.${m[1]}`] = Number(m[3]);
    }
    for (const [key, name] of [
      ['heapTotal', 'nodejs_heap_size_total_bytes'],
      ['heapUsed', 'nodejs_heap_size_used_bytes'],
      ['external', 'nodejs_external_memory_bytes'],
    ]) {
      const m = text.match(new RegExp(`^${name} (\\d+)`, 'm'));
      if (m) out[key] = Number(m[1]);
    }
    return out;
  } catch {
    return null;
  }
}

/**
 * Resident KiB of each mapping, grouped by what backs it ([heap], a file); anonymous mappings by their
 * size (glibc's arenas of other threads reserve 64 MiB each; V8's pages are 256 KiB, its semi-spaces
 * and large objects other sizes).
 */
function mappings(pid) {
  const text = read(`/proc/${pid}/smaps`);
  if (!text) return [];
  const by = new Map();
  let name = '';
  for (const line of text.split('\n')) {
    const head = line.match(/^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/);
    if (head) {
      const size = (parseInt(head[2], 16) - parseInt(head[1], 16)) / 1024;
      name = head[3] || `[anon ${size >= 1024 ? `${Math.round(size / 1024)} MiB` : `${size} KiB`}]`;
      continue;
    }
    const m = line.match(/^Rss:\s+(\d+) kB/);
    if (m && Number(m[1]) > 0) {
      const [kb, n] = by.get(name) ?? [0, 0];
      by.set(name, [kb + Number(m[1]), n + 1]);
    }
  }
  return [...by].sort((a, b) => b[1][0] - a[1][0]).slice(0, 20);
}

let pid = opt('pid') ? Number(opt('pid')) : null;
while (!pid && Date.now() < untilMs) {
  pid = findServing();
  if (!pid) await new Promise((r) => setTimeout(r, 500));
}
if (!pid) process.exit(1);
const port = read(`/proc/${pid}/environ`)?.split('\0').find((v) => v.startsWith('PORT='))?.slice(5) ?? opt('port', '3000');
console.log(`pid ${pid} port ${port} cmd ${read(`/proc/${pid}/cmdline`)?.split('\0').join(' ')}`);
const malloc = read(`/proc/${pid}/environ`)?.split('\0').filter((v) => v.startsWith('MALLOC_'));
if (malloc?.length) console.log(`env ${malloc.join(' ')}`);
setTimeout(() => {
  const names = fs.readdirSync(`/proc/${pid}/task`).map((t) => read(`/proc/${pid}/task/${t}/comm`)?.trim());
  console.log(`threads after 10 s: ${names.join(', ')}`);
}, 10_000).unref();

let peak = null;
let peakMaps = [];
const mb = (bytes) => (bytes == null ? '-' : (bytes / MiB).toFixed(1));
const t0 = Date.now();
const stop = () => {
  if (peak) {
    console.log(`\npeak at +${peak.t}s: ${JSON.stringify(peak)}`);
    for (const [name, [k, n]] of peakMaps) console.log(`  ${(k / 1024).toFixed(1).padStart(7)} MiB  ${String(n).padStart(4)} × ${name}`);
  }
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
console.log('   t  rss  anon  file  thr | heapTot heapUsed new.tot old.tot old.used code.tot lo.tot ext');
while (Date.now() < untilMs) {
  const status = read(`/proc/${pid}/status`);
  if (!status) break;
  const h = (await heapSpaces(port)) ?? {};
  const s = {
    t: Math.round((Date.now() - t0) / 1000),
    rss: kib(status, 'VmRSS'),
    anon: kib(status, 'RssAnon'),
    file: kib(status, 'RssFile'),
    threads: Number(status.match(/^Threads:\s+(\d+)/m)?.[1]),
    heap: h,
  };
  console.log(
    `${String(s.t).padStart(4)} ${(s.rss / 1024).toFixed(0).padStart(4)} ${(s.anon / 1024).toFixed(0).padStart(5)} ${(s.file / 1024).toFixed(0).padStart(5)} ${String(s.threads).padStart(4)} | ` +
      [h.heapTotal, h.heapUsed, h['new.total'], h['old.total'], h['old.used'], h['code.total'], h['large_object.total'], h.external].map(mb).join(' '),
  );
  if (!peak || s.rss > peak.rss) {
    peak = s;
    peakMaps = mappings(pid);
  }
  await new Promise((r) => setTimeout(r, everyMs));
}
stop();
