import { chmodSync, existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import {
  ADMIN_TOKEN,
  call,
  isAlive,
  killAll,
  newDataDir,
  pidFile,
  postmaster,
  queryEmbedded,
  removeDataDirs,
  spawnService,
  startService,
  stopService,
  withTimeout,
} from './support/process.js';
import { Api, issueKey } from './support/http.js';
import { fundedProject } from '../support/fixtures.js';

afterEach(killAll);
afterAll(removeDataDirs);

// One data directory for the file: the first start initialises it, later ones restart on it.
const dataDir = newDataDir();

describe('SIGTERM', () => {
  it('exits 0 and stops the embedded PostgreSQL', async () => {
    const service = await startService({ dataDir });
    const pm = postmaster(dataDir);
    expect(pm).toBeDefined();
    expect(isAlive(pm!.pid)).toBe(true);
    expect((await call(service, 'GET', '/readyz')).status).toBe(200);

    expect(await stopService(service, 'SIGTERM', 10_000)).toEqual({ code: 0, signal: null });
    expect(isAlive(pm!.pid)).toBe(false);
    expect(existsSync(pidFile(dataDir))).toBe(false); // removed by a clean PostgreSQL shutdown
    expect(service.stdout()).toMatch(/"msg":"stopped"/);
  }, 60_000);

  it('SIGINT does the same', async () => {
    const service = await startService({ dataDir });
    const pm = postmaster(dataDir)!;
    expect(await stopService(service, 'SIGINT', 10_000)).toEqual({ code: 0, signal: null });
    expect(isAlive(pm.pid)).toBe(false);
    expect(existsSync(pidFile(dataDir))).toBe(false);
  }, 60_000);

  it('lets an in-flight request finish, refuses new connections, and exits promptly after it', async () => {
    // A long grace period: the process must not need it once the last request is answered.
    const service = await startService({ dataDir, env: { LEDGER_SHUTDOWN_GRACE_MS: '25000' } });
    const body = JSON.stringify({ owner: 'in-flight', plan_code: 'starter' });
    const agent = new http.Agent({ keepAlive: true });
    const req = http.request({
      host: '127.0.0.1',
      port: service.port,
      method: 'POST',
      path: '/admin/api-keys',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), admin_token: ADMIN_TOKEN, expect: '100-continue' },
    });
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
      req.on('error', reject);
    });
    // "100 Continue" proves the server has parsed the headers and is running the handler,
    // which now waits for the body: the request is in flight.
    await withTimeout(new Promise<void>((resolve) => req.once('continue', () => resolve())), 10_000, 'no 100 Continue');
    service.child.kill('SIGTERM');
    await service.waitForStdout(/"msg":"shutting down"/, 10_000);

    // The listener closes right after that line is written (the log line can reach us a moment
    // before the close when the scheduler runs us first): new connections are soon refused.
    const deadline = Date.now() + 2_000;
    let outcome = 'connected';
    while (outcome === 'connected' && Date.now() < deadline) {
      outcome = await new Promise<string>((resolve) => {
        const socket = net.connect(service.port, '127.0.0.1', () => {
          socket.destroy();
          resolve('connected');
        });
        socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      });
      if (outcome === 'connected') await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(outcome).toBe('ECONNREFUSED');

    req.end(body);
    const answered = await withTimeout(response, 10_000, 'in-flight request was not answered');
    const answeredAt = Date.now();
    expect(answered.status).toBe(201);
    expect(JSON.parse(answered.text)).toMatchObject({ owner: 'in-flight', plan_code: 'starter' });

    expect(await withTimeout(service.exited, 10_000, 'no exit after the in-flight request')).toEqual({ code: 0, signal: null });
    // The keep-alive connection of the finished request must not hold the process for the grace period.
    expect(Date.now() - answeredAt).toBeLessThan(5_000);
    agent.destroy();

    // The request was committed before the database stopped.
    const again = await startService({ dataDir });
    const owners = await queryEmbedded<{ plan_code: string }>(dataDir, `SELECT plan_code FROM owners WHERE id = 'in-flight'`);
    expect(owners).toEqual([{ plan_code: 'starter' }]);
    expect(await stopService(again)).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('abandons a request stalled past LEDGER_SHUTDOWN_GRACE_MS and still exits 0', async () => {
    const service = await startService({ dataDir, env: { LEDGER_SHUTDOWN_GRACE_MS: '300' } });
    const req = http.request({
      host: '127.0.0.1',
      port: service.port,
      method: 'POST',
      path: '/admin/api-keys',
      headers: { 'content-type': 'application/json', 'content-length': 1000, admin_token: ADMIN_TOKEN, expect: '100-continue' },
    });
    req.on('error', () => undefined); // the server drops the connection
    await withTimeout(new Promise<void>((resolve) => req.once('continue', () => resolve())), 10_000, 'no 100 Continue');
    const pm = postmaster(dataDir)!;
    const started = Date.now();
    service.child.kill('SIGTERM'); // the body never comes
    expect(await withTimeout(service.exited, 10_000, 'stalled request kept the process alive')).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(isAlive(pm.pid)).toBe(false);
    req.destroy();
  }, 60_000);
});

describe('SIGTERM with stalled exports open (CONTRACT §18)', () => {
  it('cuts the open streams and exits 0 within 30 s, whatever their clients do', async () => {
    // the default grace (10 s): the streams are cut when it ends, and their connections come back before the pool closes
    const service = await startService({ dataDir });
    const key = await issueKey(service.baseUrl, ADMIN_TOKEN, 'stalled-exports', 'enterprise');
    const api = new Api(service.baseUrl, key);
    const e = await fundedProject(api, key, { customers: 0, systemBalance: 100 });
    await queryEmbedded(
      dataDir,
      `INSERT INTO transactions (project_id, asset_id, kind, to_wallet_id, amount, to_balance, to_count)
       SELECT p.id, p.asset_id, 'seed', $2, 1, 1000 + g, 1 + g FROM projects p, generate_series(1, 50000) g WHERE p.id = $1`,
      [e.projectId, e.system.id],
    );
    // two exports whose readers take a first chunk and then read nothing more
    const stalled = await Promise.all(
      [1, 2].map(
        () =>
          new Promise<http.ClientRequest>((resolve, reject) => {
            const req = http.get({ host: '127.0.0.1', port: service.port, path: `/transactions/export?projectId=${e.projectId}`, headers: { api_key: key }, agent: false }, (res) => {
              if (res.statusCode !== 200) reject(new Error(`export answered ${res.statusCode}`));
              res.once('data', () => (res.pause(), resolve(req)));
            });
            req.on('error', () => undefined); // the server cuts it
          }),
      ),
    );
    const started = Date.now();
    service.child.kill('SIGTERM');
    expect(await withTimeout(service.exited, 30_000, 'stalled exports kept the process alive past 30 s')).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(service.stdout()).toMatch(/"msg":"stopped"/);
    for (const req of stalled) req.destroy();
  }, 90_000);
});

describe('start-up failure', () => {
  it('exits non-zero and stops the embedded PostgreSQL when the port is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const service = spawnService({ dataDir, env: { PORT: String(port) } });
      const exit = await withTimeout(service.exited, 20_000, 'service did not exit');
      expect(exit.code).not.toBe(0);
      expect(exit.code).not.toBeNull();
      expect(service.stdout()).toMatch(/EADDRINUSE/);
      expect(service.stdout()).not.toMatch(/listening on/);
      // The cluster was started (the failure comes at listen) and then shut down cleanly.
      expect(existsSync(pidFile(dataDir))).toBe(false);
    } finally {
      blocker.close();
    }
  }, 60_000);

  // As root the cluster runs as `postgres`, which must be able to traverse every parent directory.
  (process.getuid?.() === 0 ? it : it.skip)('names the directory postgres cannot reach (running as root)', async () => {
    const parent = newDataDir();
    chmodSync(parent, 0o700);
    const service = spawnService({ dataDir: path.join(parent, 'data') });
    const exit = await withTimeout(service.exited, 20_000, 'service did not exit');
    expect(exit.code).toBe(1);
    expect(service.stdout()).toContain(`${parent} is not searchable`);
    expect(existsSync(path.join(parent, 'data', 'pg'))).toBe(false);
  }, 30_000);
});
