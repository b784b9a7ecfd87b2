import { fundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { WsClient, wsUrl } from '../support/ws-client.js';

/**
 * The keep-alive of subscription sockets (KEEP_ALIVE_MS in src/graphql/subscriptions/websocket-server.ts,
 * 1 s here): a socket that has not answered a ping by the next one is terminated, so a peer that
 * is gone, or reads nothing, holds neither a socket nor its buffers for long.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ subscriptionKeepAliveMs: 1_000 });
});
afterAll(() => t.close());

describe('subscription keep-alive', () => {
  it('terminates a socket that reads nothing (no pong): its subscription ends, its client sees 1006', async () => {
    const p = await fundedProject(t, { owner: 'keep-alive' }, { customers: 1 });
    const silent = await WsClient.connect(wsUrl(t.baseUrl), p.key);
    silent.subscribe('events', 'subscription($projectId: ID!) { ledgerEvents(projectId: $projectId) { seq } }', { projectId: String(p.projectId) });
    await t.app.services.eventFeeds.whenSize((size) => size === 1);
    silent.socket.pause(); // reads nothing more, pings included
    await t.app.services.eventFeeds.whenSize((size) => size === 0);
    silent.socket.resume();
    expect(await silent.closed).toEqual({ code: 1006, reason: '' });
  });
});
