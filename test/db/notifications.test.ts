import { jest } from '@jest/globals';
import pg from 'pg';
import { NotificationChannel, NOTIFY_SQL } from '../../src/db/notifications.js';
import { createLogger } from '../../src/logger.js';
import { createTestDatabase } from '../support/database.js';

/** Two channels on one database stand for two service instances. */
let url: string;
let sender: pg.Client;
const channels: NotificationChannel[] = [];
beforeAll(async () => {
  url = await createTestDatabase();
  sender = new pg.Client({ connectionString: url });
  await sender.connect();
});
afterAll(async () => {
  await Promise.all(channels.map((c) => c.stop()));
  await sender.end();
});

async function started(): Promise<NotificationChannel> {
  const channel = new NotificationChannel(url, createLogger('silent'));
  channels.push(channel);
  await channel.start();
  return channel;
}

/** Listens on `name`; resolves once listening, to the promise of the next payload. */
async function next(channel: NotificationChannel, name: string): Promise<{ payload: Promise<string> }> {
  let resolve!: (payload: string) => void;
  const payload = new Promise<string>((r) => (resolve = r));
  const stop = await channel.subscribe(name, (p) => {
    stop();
    resolve(p);
  });
  return { payload };
}

describe('NotificationChannel', () => {
  it('delivers a notification to every instance, only once the sending transaction commits', async () => {
    const [a, b] = [await started(), await started()];
    const [gotA, gotB] = [await next(a, 'ch_commit'), await next(b, 'ch_commit')];
    await sender.query('BEGIN');
    await sender.query(NOTIFY_SQL, ['ch_commit', 'rolled back']);
    await sender.query('ROLLBACK');
    await sender.query(NOTIFY_SQL, ['ch_commit', 'committed']);
    expect(await gotA.payload).toBe('committed');
    expect(await gotB.payload).toBe('committed');
  });

  it('reconnects after its connection is killed, listens again and tells its subscribers to resynchronise', async () => {
    const channel = await started();
    const received: string[] = [];
    await channel.subscribe('ch_reconnect', (payload) => received.push(payload));
    const reconnected = new Promise<void>((resolve) => channel.onReconnect(resolve));
    const pid = channel.backendPid();
    expect(pid).toBeDefined();
    await sender.query('SELECT pg_terminate_backend($1)', [pid]);
    await reconnected;
    expect(channel.backendPid()).not.toBe(pid);
    const after = await next(channel, 'ch_reconnect');
    await sender.query(NOTIFY_SQL, ['ch_reconnect', 'after']);
    expect(await after.payload).toBe('after');
    expect(received).toContain('after');
  });

  it('opens one connection however often it is started: the opening under way, or none once open', async () => {
    // this file's database only: test files running beside it open channels of their own on the same cluster
    const ours = async () =>
      (await sender.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'ledger-notifications' AND datname = current_database()`)).rows[0].n;
    const before = await ours();
    const channel = new NotificationChannel(url, createLogger('silent'));
    channels.push(channel);
    await Promise.all([channel.start(), channel.start()]); // the second joins the first's opening
    const pid = channel.backendPid();
    await channel.start(); // open already (openDatabase's `listen` starts it, then the app does)
    expect(channel.backendPid()).toBe(pid);
    expect(await ours()).toBe(before + 1);
    const got = await next(channel, 'ch_started_twice');
    await sender.query(NOTIFY_SQL, ['ch_started_twice', 'once']);
    expect(await got.payload).toBe('once');
  });

  it('listens to every channel subscribed before it opens, or while its LISTENs are under way', async () => {
    const channel = new NotificationChannel(url, createLogger('silent'));
    channels.push(channel);
    const early = await next(channel, 'ch_early'); // not connected: recorded, listened to by start()
    // A subscription while the channels' LISTEN statement is in flight: the connection is not the
    // channel's yet, so subscribe() only records it, and the opening must listen to it next.
    let late: Promise<{ payload: Promise<string> }> | undefined;
    const original = pg.Client.prototype.query;
    const query = jest.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const sent = Reflect.apply(original, this, args) as never;
      if (!late && typeof args[0] === 'string' && args[0].startsWith('LISTEN')) late = next(channel, 'ch_late');
      return sent;
    });
    try {
      await channel.start();
    } finally {
      query.mockRestore();
    }
    expect(late).toBeDefined();
    const lateGot = await late!;
    await sender.query(NOTIFY_SQL, ['ch_early', 'early']);
    await sender.query(NOTIFY_SQL, ['ch_late', 'late']);
    expect(await early.payload).toBe('early');
    expect(await lateGot.payload).toBe('late');
  });
});
