import * as graphqlWs from 'graphql-ws';
import { fundedProject, transfer, type FundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The console's live balances (src/web/console/live.js) against the real service, outside a
 * browser: Node 24 has the WebSocket and URL globals the page uses; graphql-ws stands in for its
 * UMD build. The browser test (test/web/browser) drives the whole page.
 */
let t: TestApp;
let p: FundedProject;
beforeAll(async () => {
  t = await startTestApp();
  p = await fundedProject(t, await t.issueKey('console-live'), { customers: 1 });
  Object.assign(globalThis, { location: new URL(`${t.baseUrl}/console`), graphqlWs });
});
afterAll(() => t.close());

interface Live {
  connected: boolean;
  watch(ids: (string | null)[]): void;
  stop(): void;
}

it('subscribes to the watched wallets, reports each change and the connection state', async () => {
  // @ts-expect-error a browser module without types
  const { liveWallets } = (await import('../../src/web/console/live.js')) as { liveWallets: (options: unknown) => Live };
  const changes: any[] = [];
  const states: boolean[] = [];
  let wake = () => {};
  const live = liveWallets({
    apiKey: { get: () => p.key },
    onWallet: (wallet: unknown) => {
      changes.push(wallet);
      wake();
    },
    onState: (connected: boolean) => {
      states.push(connected);
      wake();
    },
  });
  const until = (done: () => boolean) => new Promise<void>((resolve) => {
    wake = () => done() && resolve();
    wake();
  });
  live.watch([p.customers[0].id, null]);
  await until(() => live.connected);
  await t.app.services.eventFeeds.whenSize((size) => size === 1);
  // initial: true — the wallet as it is when the subscription starts, then each change
  await until(() => changes.length === 1);
  expect(changes[0]).toEqual({ id: p.customers[0].id, status: 'ACTIVE', balances: [{ currency: p.symbol, balance: '0', held: '0', available: '0' }] });
  await transfer(t, p, p.system.id, p.customers[0].id, 4.25);
  await until(() => changes.length === 2);
  expect(changes[1]).toEqual({ id: p.customers[0].id, status: 'ACTIVE', balances: [{ currency: p.symbol, balance: '4.25', held: '0', available: '4.25' }] });
  live.watch([]); // the page moved on: its subscription completes
  await t.app.services.eventFeeds.whenSize((size) => size === 0);
  live.stop();
  await until(() => !live.connected);
  expect(states).toEqual([true, false]);
});
