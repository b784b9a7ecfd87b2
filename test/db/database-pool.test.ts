import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { createTestDatabase } from '../support/database.js';
import { startTestApp } from '../support/test-app.js';

let db: Database;
beforeAll(async () => {
  db = await openDatabase(await createTestDatabase(), createLogger('silent'), 2);
});
afterAll(() => db.close());

/** pg.Pool keeps its settings here; pg's own default closes a connection idle for 10 s. */
const idleTimeout = (pool: unknown) => (pool as { options: { idleTimeoutMillis?: number } }).options.idleTimeoutMillis;

describe('openDatabase: pooled connections outlive a lull (a new backend is dearer for its first seconds)', () => {
  it('keeps request connections idle for minutes, not pg’s 10 s', async () => {
    await db.pool.query('SELECT 1');
    expect(idleTimeout(db.pool)).toBeGreaterThanOrEqual(60_000);
    expect(db.pool.idleCount).toBe(1);
  });

  it('keeps background connections idle for minutes too', async () => {
    await db.background.query('SELECT 1');
    expect(idleTimeout(db.background)).toBeGreaterThanOrEqual(60_000);
    expect(db.background.idleCount).toBeGreaterThanOrEqual(1); // 2 when start-up warmed it (openDatabase)
  });
});

describe('openDatabase: the LISTEN connection, opened with the pools when asked (the service start)', () => {
  it('opens it at once and closes it with the database; not without `listen`', async () => {
    expect(db.notifications.backendPid()).toBeUndefined(); // opened with `listen` only (or by the app's start())
    const listening = await openDatabase(await createTestDatabase(), createLogger('silent'), 2, { listen: true });
    const channel = listening.notifications;
    try {
      await channel.start(); // joins the opening openDatabase began
      expect(channel.backendPid()).toBeDefined();
    } finally {
      await listening.close();
    }
    expect(channel.backendPid()).toBeUndefined();
  });

  it('is the services’ channel: one LISTEN connection per instance', async () => {
    const t = await startTestApp();
    try {
      expect(t.app.services.notifications).toBe(t.db.notifications);
    } finally {
      await t.close();
    }
  });
});

describe('openDatabase: close() while a request connection is still opening', () => {
  // The interleaving of the shutdown hang (docs/decisions/ci-hang-shutdown.md): an ORM statement
  // needs a new connection, and its handshake ends only once close() has had the ORM end the pool.
  // Before the fix the ORM's driver took that connection and threw without returning it, and close()
  // waited for it forever.
  it('returns the late connection, refuses its statement, and closes', async () => {
    const late = await openDatabase(await createTestDatabase(), createLogger('silent'), 2);
    const pool = late.pool as pg.Pool & { Client: typeof pg.Client };
    const busy: pg.PoolClient[] = []; // the idle connections, held so that the statement needs a new one
    while (pool.idleCount > 0) busy.push(await pool.connect());

    let handshakeAsked!: () => void;
    const asked = new Promise<void>((resolve) => (handshakeAsked = resolve));
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const Client = pool.Client;
    // pg-pool makes each new connection with `new pool.Client(…)` and connects it with a callback
    pool.Client = class GatedClient extends Client {
      override connect(callback?: any): any {
        handshakeAsked();
        gate.then(() => super.connect()).then(() => callback?.(null), (error: Error) => callback?.(error));
      }
    } as typeof pg.Client;
    let poolEnded!: () => void;
    const ending = new Promise<void>((resolve) => (poolEnded = resolve));
    const end = pool.end.bind(pool) as () => Promise<void>;
    pool.end = (() => {
      poolEnded();
      return end();
    }) as typeof pool.end;

    const statement = late.em().getConnection().execute('SELECT 1');
    await asked; // its connection is opening
    const closed = late.close();
    await ending; // the ORM's close has let go of the pool and ends it
    openGate();
    await expect(statement).rejects.toThrow(/closing/);
    expect(pool.totalCount).toBe(busy.length); // the late connection went back to the pool, which dropped it
    for (const client of busy) client.release();
    await closed;
    expect(pool.totalCount).toBe(0);
  });
});

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('openDatabase: idle connections never keep a process alive', () => {
  // Without allowExitOnIdle the idle connections' sockets and 5-minute timers hold the event loop:
  // a CLI command or a test worker that forgot close() would stay up that long (jest's "a worker
  // process has failed to exit gracefully"). The child below opens a database (dist/src, compiled
  // by `npm test`), uses both pools and the ORM, and returns without closing anything.
  it('lets a process that never closes its database exit once its connections are idle', async () => {
    const script = `
      const { openDatabase } = await import(${JSON.stringify(path.join(ROOT, 'dist/src/db/database.js'))});
      const { createLogger } = await import(${JSON.stringify(path.join(ROOT, 'dist/src/logger.js'))});
      const db = await openDatabase(process.argv[1], createLogger('silent'), 2);
      await Promise.all([db.pool.query('SELECT 1'), db.background.query('SELECT 1'), db.em().getConnection().execute('SELECT 1')]);
      console.log('idle', db.pool.idleCount, db.background.idleCount);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, await createTestDatabase()], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(out).toMatch(/^idle [1-9]\d* [1-9]\d*$/m); // it had open idle connections in both pools, and exited anyway
  }, 30_000);
});
