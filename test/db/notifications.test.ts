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
});
