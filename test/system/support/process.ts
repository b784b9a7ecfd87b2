import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { embeddedUrl } from '../../../src/db/embedded-postgres.js';
import { watchStall } from '../../support/stall-dump.js';

/**
 * Drives the real compiled service (`dist/src/main.js`, built by `npm test`'s tsc step) and
 * its CLIs as child processes on Node 24 from node_modules.
 */
export const ROOT = process.cwd();
export const NODE = path.join(ROOT, 'node_modules', '.bin', 'node');
export const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');
export const APIKEY_CLI = path.join(ROOT, 'dist', 'src', 'cli', 'apikey.js');
export const ADMIN_TOKEN = 'process-test-admin-token';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServiceProcess {
  child: ChildProcess;
  pid: number;
  /** Everything printed so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout (rejects on exit or timeout). */
  waitForStdout(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<Exit>;
  /** Set once `exited` has resolved. */
  exit?: Exit;
}

export interface RunningService extends ServiceProcess {
  port: number;
  baseUrl: string;
}

const live = new Set<ServiceProcess>();

/**
 * An environment for the child: the test's environment minus what would change the service's
 * behaviour. NODE_ENV=test (set by jest) is dropped so libraries behave as under `npm start`;
 * NODE_OPTIONS (jest's --experimental-vm-modules) and DATABASE_URL are dropped too.
 */
export function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['NODE_ENV', 'NODE_OPTIONS', 'DATABASE_URL', 'PORT', 'HOST', 'LEDGER_DATA_DIR', 'LEDGER_ADMIN_TOKEN', 'LEDGER_AUTO_MIGRATE', 'LOG_LEVEL']) {
    delete env[name];
  }
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** Spawns `node <script> ...args` as the leader of its own process group (so the group can be SIGKILLed). */
export function spawnNode(script: string, args: string[], env: Record<string, string | undefined>): ServiceProcess {
  return spawnCommand(NODE, [script, ...args], childEnv(env));
}

/**
 * Runs package.json's `start` line as `npm start` runs it: through sh, with node_modules/.bin first
 * on the PATH. The line ends in `exec node …`, so the child's pid is the service's.
 */
export function spawnStartScript(env: Record<string, string | undefined>): ServiceProcess {
  const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const full = childEnv(env);
  full.PATH = `${path.dirname(NODE)}${path.delimiter}${full.PATH ?? ''}`;
  return spawnCommand('/bin/sh', ['-c', scripts.start], full);
}

function spawnCommand(command: string, args: string[], env: NodeJS.ProcessEnv): ServiceProcess {
  const child = spawn(command, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const check of waiters) check();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const handle: ServiceProcess = {
    child,
    pid: child.pid!,
    stdout: () => out,
    stderr: () => err,
    exited: new Promise<Exit>((resolve) => {
      // 'close' (not 'exit'): stdout and stderr are fully read by then.
      child.once('close', (code, signal) => {
        handle.exit = { code, signal };
        live.delete(handle);
        for (const check of waiters) check();
        resolve(handle.exit);
      });
    }),
    waitForStdout(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${pattern}\nstdout:\n${out}\nstderr:\n${err}`));
        }, timeoutMs);
        const check = () => {
          const match = pattern.exec(out);
          if (match) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve(match);
          } else if (handle.exit) {
            clearTimeout(timer);
            waiters.delete(check);
            reject(new Error(`process exited (${JSON.stringify(handle.exit)}) before printing ${pattern}\nstdout:\n${out}\nstderr:\n${err}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
  };
  live.add(handle);
  return handle;
}

export const LISTENING = /listening on http:\/\/([^\s:]+|\[[^\]]+\]):(\d+)/;

export interface ServiceOptions {
  dataDir?: string;
  databaseUrl?: string;
  adminToken?: string | null;
  env?: Record<string, string | undefined>;
}

export function serviceEnv(options: ServiceOptions): Record<string, string | undefined> {
  return {
    PORT: '0',
    LOG_LEVEL: 'info',
    LEDGER_DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl,
    LEDGER_ADMIN_TOKEN: options.adminToken === null ? undefined : (options.adminToken ?? ADMIN_TOKEN),
    ...options.env,
  };
}

/** Spawns the service; does not wait. */
export function spawnService(options: ServiceOptions): ServiceProcess {
  return spawnNode(MAIN, [], serviceEnv(options));
}

/** Waits for the `listening on` line and parses the port from it. */
export async function waitListening(service: ServiceProcess, timeoutMs = 20_000): Promise<RunningService> {
  const match = await service.waitForStdout(LISTENING, timeoutMs);
  const port = Number(match[2]);
  return Object.assign(service, { port, baseUrl: `http://127.0.0.1:${port}` });
}

export async function startService(options: ServiceOptions): Promise<RunningService> {
  return waitListening(spawnService(options));
}

/** Sends `signal` to the process and waits for it to exit. */
export async function stopService(service: ServiceProcess, signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 15_000): Promise<Exit> {
  if (service.exit) return service.exit;
  service.child.kill(signal);
  return withTimeout(service.exited, timeoutMs, `process ${service.pid} did not exit within ${timeoutMs} ms after ${signal}`);
}

/** SIGKILL of the whole process group: the service and the PostgreSQL it started. */
export function killGroup(service: ServiceProcess): void {
  try {
    process.kill(-service.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** For afterEach/afterAll: SIGKILLs the group of every child still running. */
export async function killAll(): Promise<void> {
  const running = [...live];
  for (const service of running) killGroup(service);
  await Promise.all(running.map((s) => withTimeout(s.exited, 10_000, `process ${s.pid} survived SIGKILL`).catch(() => undefined)));
}

export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
    }),
  ]);
}

export async function waitFor(condition: () => boolean, timeoutMs: number, message: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(message);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// --- data directories and the embedded cluster -------------------------------------------

const dirs: string[] = [];

export function newDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ledger-proc-'));
  dirs.push(dir);
  return dir;
}

/** For afterAll, after killAll(). */
export function removeDataDirs(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function pidFile(dataDir: string): string {
  return path.join(dataDir, 'pg', 'postmaster.pid');
}

/** PID and port of the cluster from `<dataDir>/pg/postmaster.pid` (lines 1 and 4). */
export function postmaster(dataDir: string): { pid: number; port: number } | undefined {
  const file = pidFile(dataDir);
  if (!existsSync(file)) return undefined;
  const lines = readFileSync(file, 'utf8').split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}

/** A live (not zombie) process: /proc/<pid>/stat exists and its state is not Z or X. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Runs `sql` on the service's embedded database while the cluster is up. */
export async function queryEmbedded<T = Record<string, unknown>>(dataDir: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const pm = postmaster(dataDir);
  if (!pm) throw new Error(`no running cluster in ${dataDir}`);
  return queryUrl<T>(embeddedUrl(pm.port), sql, params);
}

export function queryUrl<T = Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  return watchStall(`queryUrl ${sql.slice(0, 80)}`, url, async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  });
}

// --- HTTP ----------------------------------------------------------------------------------

export interface Response<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export async function call<T = any>(
  service: RunningService,
  method: string,
  pathname: string,
  options: { key?: string; admin?: boolean; body?: unknown } = {},
): Promise<Response<T>> {
  const headers: Record<string, string> = {};
  if (options.key !== undefined) headers.api_key = options.key;
  if (options.admin) headers.admin_token = ADMIN_TOKEN;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(service.baseUrl + pathname, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

export async function issueKey(service: RunningService, owner: string, plan = 'pro'): Promise<string> {
  const res = await call<{ api_key: string }>(service, 'POST', '/admin/api-keys', { admin: true, body: { owner, plan_code: plan } });
  if (res.status !== 201) throw new Error(`key issuance failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.api_key;
}
