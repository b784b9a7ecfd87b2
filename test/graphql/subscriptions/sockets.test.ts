import { startTestApp, type TestApp } from '../../support/test-app.js';
import { WsClient, wsUrl } from '../support/ws-client.js';

/**
 * CONTRACT §18, WebSockets: at most 100 open subscription sockets per owner on one instance,
 * counted from connection_init (the next is closed with 4429); a socket that sends no
 * connection_init within 3 s is closed with 4408. Real sockets against the real server.
 */
let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await startTestApp();
  url = wsUrl(t.baseUrl);
});
afterAll(() => t.close());

const MAX = 100;

/** Opens `count` sockets at once with `key`; answers each one's first message type, or its close code. */
async function openMany(key: string, count: number): Promise<{ clients: WsClient[]; outcomes: (string | number)[] }> {
  const clients = await Promise.all(Array.from({ length: count }, () => WsClient.open(url, { api_key: key })));
  const outcomes = await Promise.all(clients.map((c) => c.next().then((m) => m.type, async () => (await c.closed).code)));
  return { clients, outcomes };
}

describe('open subscription sockets per owner', () => {
  it(`accepts ${MAX} at once and closes the next with 4429; another owner is not affected; a closed socket frees its slot`, async () => {
    const key = await t.issueKey('ws-crowd');
    const { clients, outcomes } = await openMany(key, MAX + 1);
    expect(outcomes.filter((o) => o === 'connection_ack')).toHaveLength(MAX);
    expect(outcomes.filter((o) => o === 4429)).toHaveLength(1);
    const refused = clients[outcomes.indexOf(4429)];
    expect((await refused.closed).reason).toMatch(/too many/i);
    const open = clients.filter((_c, i) => outcomes[i] === 'connection_ack');
    expect(t.app.subscriptions.sockets.count('ws-crowd')).toBe(MAX);

    // the owner's open sockets still work
    open[MAX - 1].send({ type: 'ping' });
    expect((await open[MAX - 1].next()).type).toBe('pong');

    // another owner has slots of its own
    const other = await WsClient.connect(url, await t.issueKey('ws-crowd-other'));

    // one closed: the next connection_init is accepted, and the one after it refused again
    await open[0].close();
    await t.app.subscriptions.sockets.whenCount('ws-crowd', (n) => n === MAX - 1);
    const again = await WsClient.connect(url, key);
    const over = await WsClient.open(url, { api_key: key });
    expect((await over.closed).code).toBe(4429);

    for (const client of [...open.slice(1), again, other]) await client.close();
    await t.app.subscriptions.sockets.whenCount('ws-crowd', (n) => n === 0);
  });
});

describe('connection_init wait', () => {
  it('closes a socket that sends no connection_init with 4408 after 3 s, not before; a socket that sent it stays', async () => {
    const opened = Date.now();
    const silent = await WsClient.open(url);
    const initialised = await WsClient.connect(url, await t.issueKey('ws-patient'));
    const closed = await silent.closed;
    const after = Date.now() - opened;
    console.log(`a socket without connection_init was closed after ${after} ms`);
    expect(closed).toEqual({ code: 4408, reason: 'Connection initialisation timeout' });
    expect(after).toBeGreaterThanOrEqual(2_950);
    expect(after).toBeLessThan(4_000);
    initialised.send({ type: 'ping' });
    expect((await initialised.next()).type).toBe('pong');
    await initialised.close();
  });
});
