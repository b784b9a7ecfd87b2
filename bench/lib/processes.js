// Child processes of a benchmark run (the service and the baseline): start, wait for the
// `listening on http://HOST:PORT` line, keep their output, stop them by their own pid.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Node 24 from the `node` devDependency, never the system node. */
export const NODE = path.join(ROOT, 'node_modules/.bin/node');

/** The node flags `npm start` gives the service (package.json `start`): the service runs here as it runs there. */
export function serviceNodeFlags() {
  const start = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
  return start.split(/\s+/).filter((word) => word.startsWith('--'));
}

/** The environment `npm start` sets for the service (`NAME=${NAME:-default}` before its `exec node`). */
export function serviceStartEnv() {
  const start = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
  const env = {};
  for (const [, name, fallback] of start.matchAll(/(?:^|\s)(\w+)=\$\{\w+:-([^}]*)\}/g)) env[name] = process.env[name] || fallback;
  return env;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const running = new Set();

/** Last resort if the harness dies without its cleanup: kill what we started, by pid. */
process.once('exit', () => {
  for (const child of running) {
    try {
      child.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
});

/**
 * Starts `args` with Node 24 and resolves once it prints `listening on http://...`.
 * `output` keeps the last lines; `problems` counts pino lines at warn level or above
 * (and any non-JSON stderr line), with the first few kept as evidence.
 */
export function startServer(name, args, env, { timeoutMs = 60_000 } = {}) {
  const child = spawn(NODE, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const handle = {
    name,
    child,
    pid: child.pid,
    url: undefined,
    output: [],
    problems: { count: 0, first: [] },
    exited: false,
    async stop() {
      if (handle.exited) return;
      await new Promise((resolve) => {
        const timer = setTimeout(() => {
          try {
            child.kill('SIGKILL');
          } catch {
            /* gone */
          }
        }, 15_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      });
    },
  };
  const record = (stream) => (line) => {
    handle.output.push(`[${stream}] ${line}`);
    if (handle.output.length > 200) handle.output.shift();
    let serious = stream === 'stderr';
    if (line.startsWith('{')) {
      try {
        serious = JSON.parse(line).level >= 40;
      } catch {
        /* not pino */
      }
    }
    if (serious && !/^listening on /.test(line)) {
      handle.problems.count += 1;
      if (handle.problems.first.length < 5) handle.problems.first.push(line.slice(0, 600));
    }
  };
  lines(child.stdout, record('stdout'));
  lines(child.stderr, record('stderr'));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${name} did not print "listening on" within ${timeoutMs} ms`)), timeoutMs);
    const fail = (error) => {
      clearTimeout(timer);
      error.message += `\n--- last output of ${name} ---\n${handle.output.join('\n')}`;
      handle.stop().finally(() => reject(error));
    };
    const onLine = (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        child.stdout.off('line', onLine);
        handle.url = match[1].replace(/\/$/, '');
        resolve(handle);
      }
    };
    child.stdout.on('line', onLine);
    child.once('exit', (code, signal) => {
      handle.exited = true;
      running.delete(child);
      if (!handle.url) fail(new Error(`${name} exited (code ${code}, signal ${signal}) before listening`));
    });
  });
}

/** Emits 'line' events on the stream itself (on top of recording them). */
function lines(stream, onLine) {
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    buffered += chunk;
    let index;
    while ((index = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, index);
      buffered = buffered.slice(index + 1);
      onLine(line);
      stream.emit('line', line);
    }
  });
}
