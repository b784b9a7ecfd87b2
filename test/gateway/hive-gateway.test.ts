import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { startHiveGateway, type RunningGateway } from '../../gateway/hive-gateway.js';
import { REWARDS_SDL, startRewardsSubgraph, tierOf, type RunningSubgraph } from '../../gateway/rewards-subgraph.js';
import { composeSupergraph } from '../../gateway/supergraph.js';
import { buildLedgerSchema } from '../../src/graphql/schema.js';
import { fundedProject, transfer, type FundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * CONTRACT §16: the ledger subgraph behind a real federation gateway. A supergraph is composed
 * with @apollo/composition from the ledger's SDL and a second subgraph that extends `Wallet`;
 * Hive Gateway serves it; the caller's api_key reaches the ledger over HTTP (queries,
 * `_entities`) and over WebSocket (subscriptions).
 */
let ledger: TestApp;
let rewards: RunningSubgraph;
let gateway: RunningGateway;
let key: string;
let p: FundedProject;
let other: FundedProject;

beforeAll(async () => {
  ledger = await startTestApp();
  rewards = await startRewardsSubgraph();
  const supergraph = composeSupergraph([
    { name: 'ledger', url: `${ledger.baseUrl}/graphql`, sdl: (await buildLedgerSchema()).sdl },
    { name: 'rewards', url: rewards.url, sdl: REWARDS_SDL },
  ]);
  gateway = await startHiveGateway({ supergraph });
  key = await ledger.issueKey('gateway-owner');
  p = await fundedProject(ledger, key, { customers: 2 });
  other = await fundedProject(ledger, await ledger.issueKey('gateway-other'), { customers: 1 });
}, 60_000);

afterAll(async () => {
  await gateway?.stop();
  await rewards?.stop();
  await ledger?.close();
});

async function viaGateway(query: string, variables: Record<string, unknown> = {}, apiKey: string | null = key): Promise<any> {
  const res = await fetch(gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(apiKey === null ? {} : { api_key: apiKey }) },
    body: JSON.stringify({ query, variables }),
  });
  return res.json();
}

describe('queries through Hive Gateway', () => {
  it('answers a nested query, joining the rewards subgraph’s field onto each ledger wallet', async () => {
    const body = await viaGateway(
      `query($id: ID!) { project(id: $id) { name wallets(first: 10) { totalCount edges { node { id type tier balances { currency balance } project { id } } } } } }`,
      { id: String(p.projectId) },
    );
    expect(body.errors).toBeUndefined();
    const wallets = body.data.project.wallets.edges.map((e: any) => e.node);
    expect(wallets).toHaveLength(3);
    for (const wallet of wallets) {
      expect(wallet.tier).toBe(tierOf(wallet.id));
      expect(wallet.project.id).toBe(String(p.projectId));
      expect(wallet.balances).toEqual([{ currency: p.symbol, balance: expect.any(String) }]);
    }
  });

  it('resolves a ledger wallet the rewards subgraph refers to (the ledger’s _entities, with the caller’s key)', async () => {
    const query = `query($id: ID!) { featuredWallet(id: $id) { id tier address balances { balance } } }`;
    const mine = await viaGateway(query, { id: p.system.id });
    expect(mine.errors).toBeUndefined();
    expect(mine.data.featuredWallet).toEqual({ id: p.system.id, tier: tierOf(p.system.id), address: p.system.address, balances: [{ balance: '1000' }] });
    // another owner's wallet: the ledger resolves the reference to null
    const theirs = await viaGateway(query, { id: other.customers[0].id });
    expect(theirs.data?.featuredWallet ?? null).toBeNull();
  });

  it('forwards a missing or wrong api_key: the client sees the ledger’s unauthorized (CONTRACT §18)', async () => {
    for (const apiKey of [null, 'lk_wrong']) {
      const body = await viaGateway(`query($id: ID!) { project(id: $id) { name } }`, { id: String(p.projectId) }, apiKey);
      expect(body.data?.project ?? null).toBeNull();
      expect(body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/api_key/), extensions: expect.objectContaining({ code: 'unauthorized' }) })]);
    }
  });

  it("passes the ledger's errors through: another owner's project is not_found", async () => {
    const body = await viaGateway(`query($id: ID!) { project(id: $id) { name } }`, { id: String(other.projectId) });
    expect(body.data?.project ?? null).toBeNull();
    expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'not_found' }) })]);
  });
});

describe('a subscription through Hive Gateway', () => {
  const clients: Client[] = [];
  afterAll(async () => {
    for (const client of clients) await client.dispose();
  });

  /** A graphql-ws client of the gateway, its api_key in connection_init as the ledger asks. */
  function gatewayClient(apiKey: string): Client {
    const client = createClient({ url: gateway.url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, connectionParams: { api_key: apiKey }, retryAttempts: 0, lazy: true });
    clients.push(client);
    return client;
  }

  /** A subscription's results as they come (`next()` waits for the next one). */
  function results(client: Client, query: string, variables: Record<string, unknown>) {
    const seen: any[] = [];
    const waiters: (() => void)[] = [];
    let failure: unknown = null;
    const dispose = client.subscribe({ query, variables }, {
      next: (result) => {
        seen.push(result);
        waiters.splice(0).forEach((wake) => wake());
      },
      error: (error) => {
        failure = error;
        waiters.splice(0).forEach((wake) => wake());
      },
      complete: () => undefined,
    });
    return {
      async next(): Promise<any> {
        while (!seen.length) {
          if (failure) throw failure;
          await new Promise<void>((resolve) => waiters.push(resolve));
        }
        return seen.shift();
      },
      dispose,
    };
  }

  it('walletChanged: the ledger’s wallet after each transfer, joined with the rewards field, the caller’s key forwarded', async () => {
    const wallet = p.customers[0];
    const before = ledger.app.services.eventFeeds.size;
    const sub = results(gatewayClient(key), 'subscription($id: ID!) { walletChanged(walletId: $id) { id tier address balances { currency balance } } }', { id: wallet.id });
    await ledger.app.services.eventFeeds.whenSize((size) => size > before); // the gateway's upstream subscription is in place
    const expected = (balance: string) => ({ data: { walletChanged: { id: wallet.id, tier: tierOf(wallet.id), address: wallet.address, balances: [{ currency: p.symbol, balance }] } } });
    await transfer(ledger, p, p.system.id, wallet.id, 5);
    expect(await sub.next()).toEqual(expected('5'));
    await transfer(ledger, p, p.system.id, wallet.id, 2.5);
    expect(await sub.next()).toEqual(expected('7.5'));
    sub.dispose();
    await ledger.app.services.eventFeeds.whenSize((size) => size === before); // completing it downstream ends it upstream
  });

  it("another owner's wallet: the ledger's not_found reaches the client, with no data", async () => {
    const sub = results(gatewayClient(key), 'subscription($id: ID!) { walletChanged(walletId: $id) { id tier } }', { id: other.customers[0].id });
    const result = await sub.next();
    expect(result.data?.walletChanged ?? null).toBeNull();
    expect(result.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'not_found' }) })]);
  });
});
