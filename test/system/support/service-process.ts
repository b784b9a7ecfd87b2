import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** Node 24 from the `node` devDependency (never the system node), running the compiled service. */
const ROOT = process.cwd();
const NODE = path.join(ROOT, 'node_modules/.bin/node');
const MAIN = path.join(ROOT, 'dist/src/main.js');

export const PROCESS_ADMIN_TOKEN = 'reliability-admin-token';

export interface ServiceProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** The last lines of stdout/stderr, for failure messages. */
  output: string[];
  /** SIGTERM and wait for the exit code (the contract's graceful shutdown). */
  stop(): Promise<number | null>;
  /** SIGKILL the whole process group: the service and, when it started one, its embedded PostgreSQL. */
  kill(): Promise<void>;
}

const started = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of started) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
});

/**
 * Starts `dist/src/main.js` in its own process group (detached) and resolves once it prints
 * `listening on http://HOST:PORT`. `env` is added to a clean environment: no DATABASE_URL unless
 * given (so the service starts its embedded database in LEDGER_DATA_DIR).
 */
export function startService(env: Record<string, string>, timeoutMs = 60_000): Promise<ServiceProcess> {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  delete base.NODE_OPTIONS; // jest's --experimental-vm-modules is not for the service
  delete base.LEDGER_DATA_DIR;
  const child = spawn(NODE, [MAIN], {
    cwd: ROOT,
    env: { ...base, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', LEDGER_ADMIN_TOKEN: PROCESS_ADMIN_TOKEN, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  started.add(child);
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => {
    started.delete(child);
    resolve(code);
  }));
  const record = (stream: string) => {
    let buffered = '';
    return (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let index: number;
      while ((index = buffered.indexOf('\n')) >= 0) {
        output.push(`[${stream}] ${buffered.slice(0, index)}`);
        if (output.length > 100) output.shift();
        buffered = buffered.slice(index + 1);
      }
    };
  };
  child.stdout!.on('data', record('stdout'));
  child.stderr!.on('data', record('stderr'));

  const handle = (url: string): ServiceProcess => ({
    url,
    pid: child.pid!,
    child,
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => killGroup(child), 20_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    async kill() {
      killGroup(child);
      await exited;
      await waitGroupGone(child.pid!);
    },
  });

  return new Promise((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => fail(`did not print "listening on" within ${timeoutMs} ms`), timeoutMs);
    const fail = (why: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      killGroup(child);
      reject(new Error(`service ${why}\n--- output ---\n${output.join('\n')}`));
    };
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      if (done) return;
      seen += chunk.toString('utf8');
      const match = /listening on (http:\/\/[^\s/]+)/.exec(seen);
      if (match) {
        done = true;
        clearTimeout(timer);
        resolve(handle(match[1]));
      }
    });
    void exited.then((code) => fail(`exited with code ${code} before listening`));
  });
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

/** Waits until no process of the group is left (the embedded postgres and its backends included). */
async function waitGroupGone(pgid: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`process group ${pgid} still alive after SIGKILL`);
}
