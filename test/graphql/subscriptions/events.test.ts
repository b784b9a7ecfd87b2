import { jest } from '@jest/globals';
import { expectStatus, fundedProject, transfer, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { WsClient, wsUrl } from '../support/ws-client.js';

/**
 * CONTRACT §16: walletChanged and ledgerEvents deliver what postings, holds and status changes
 * commit — each event once, in increasing seq per project, as REST shows it.
 */
let t: TestApp;
let url: string;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  url = wsUrl(t.baseUrl);
  key = await t.issueKey('subs-events');
});
afterAll(() => t.close());

const WALLET_CHANGED = 'subscription($id: ID!) { walletChanged(walletId: $id) { id status balances { currency balance held available } } }';
const LEDGER_EVENTS = 'subscription($projectId: ID!, $types: [String!]) { ledgerEvents(projectId: $projectId, types: $types) { id seq type projectId data createdAt } }';

/** Subscribes and waits until the server has the subscription in place (its feed is open). */
async function subscribed(client: WsClient, id: string, query: string, variables: Record<string, unknown>): Promise<void> {
  const open = t.app.services.eventFeeds.size;
  client.subscribe(id, query, variables);
  await t.app.services.eventFeeds.whenSize((size) => size > open);
}

const restEvents = async (p: FundedProject, after: number) => (await expectStatus(t.request('GET', `/events?projectId=${p.projectId}&after=${after}&limit=100`, { key }), 200)).events;

describe('walletChanged', () => {
  let p: FundedProject;
  let client: WsClient;
  beforeAll(async () => {
    p = await fundedProject(t, key, { customers: 2 });
    client = await WsClient.connect(url, key);
  });
  afterAll(() => client.close());

  it('sends the wallet with its balances after a transfer, to both sides', async () => {
    const [a] = p.customers;
    await subscribed(client, 'a', WALLET_CHANGED, { id: a.id });
    await subscribed(client, 'sys', WALLET_CHANGED, { id: p.system.id });
    await transfer(t, p, p.system.id, a.id, 12.5);
    const messages = await Promise.all([client.next(), client.next()]);
    const byId = Object.fromEntries(messages.map((m) => [m.id, m.payload]));
    expect(byId.a).toEqual({ data: { walletChanged: { id: a.id, status: 'ACTIVE', balances: [{ currency: p.symbol, balance: '12.5', held: '0', available: '12.5' }] } } });
    expect(byId.sys.data.walletChanged.balances[0].balance).toBe('987.5');
    client.complete('sys');
    await t.app.services.eventFeeds.whenSize((size) => size === 1);
  });

  it('follows holds (held and available) and status changes; another wallet’s transfer sends nothing', async () => {
    const [a, b] = p.customers;
    const hold = await expectStatus(t.request('POST', '/holds', { key, body: { projectId: p.projectId, amount: 2.5, currency: p.symbol, from: a.id, to: b.id } }), 201);
    expect((await client.take('a', 1))[0].data.walletChanged.balances[0]).toEqual({ currency: p.symbol, balance: '12.5', held: '2.5', available: '10' });
    await expectStatus(t.request('POST', `/holds/${hold.hold.id}/void`, { key, body: { projectId: p.projectId } }), 200);
    expect((await client.take('a', 1))[0].data.walletChanged.balances[0].held).toBe('0');
    await transfer(t, p, p.system.id, b.id, 1); // not a's
    await expectStatus(t.request('PUT', `/wallets/status/${a.id}`, { key, body: { projectId: p.projectId, status: 'suspended' } }), 200);
    expect((await client.take('a', 1))[0].data.walletChanged).toMatchObject({ id: a.id, status: 'SUSPENDED' });
    expect(client.pending).toBe(0);
  });

  it('stops when the client completes the subscription', async () => {
    client.complete('a');
    await t.app.services.eventFeeds.whenSize((size) => size === 0);
  });
});

describe('where a subscription starts', () => {
  it('receives nothing committed before it, even what is numbered after it started', async () => {
    const p = await fundedProject(t, key, { customers: 1 });
    const [a] = p.customers;
    const client = await WsClient.connect(url, key);
    const sequencer = t.app.services.eventSequencer;
    await sequencer.stop(); // committed events wait for their number
    try {
      await transfer(t, p, p.system.id, a.id, 1); // committed before the subscription, not yet numbered
      await subscribed(client, 'a', WALLET_CHANGED, { id: a.id });
    } finally {
      sequencer.start();
    }
    await sequencer.flush(); // the earlier transfer is numbered now, after the subscription started
    await t.app.services.eventHub.wake(); // and read by the hub, which would hand it to the feed
    await transfer(t, p, p.system.id, a.id, 2);
    const [first] = await client.take('a', 1);
    expect(first.data.walletChanged.balances[0].balance).toBe('3');
    expect(client.pending).toBe(0);
    await client.close();
  });
});

describe('walletChanged(initial)', () => {
  const CURRENT_AND_CHANGES = 'subscription($id: ID!) { walletChanged(walletId: $id, initial: true) { id status balances { balance } } }';

  it('sends the wallet as it is first, then each change', async () => {
    const p = await fundedProject(t, key, { customers: 1 });
    const [a] = p.customers;
    await transfer(t, p, p.system.id, a.id, 4);
    const client = await WsClient.connect(url, key);
    try {
      await subscribed(client, 'a', CURRENT_AND_CHANGES, { id: a.id });
      expect((await client.take('a', 1))[0].data.walletChanged).toEqual({ id: a.id, status: 'ACTIVE', balances: [{ balance: '4' }] });
      await transfer(t, p, p.system.id, a.id, 1);
      expect((await client.take('a', 1))[0].data.walletChanged.balances).toEqual([{ balance: '5' }]);
      expect(client.pending).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('starts from the wallet as it is at its starting point: a status change right after the read is sent, not lost', async () => {
    const p = await fundedProject(t, key, { customers: 1 });
    const [a] = p.customers;
    const client = await WsClient.connect(url, key);
    const wallets = t.app.services.wallets;
    const real = wallets.get.bind(wallets);
    const get = jest.spyOn(wallets, 'get').mockImplementationOnce(async (...args) => {
      const read = await real(...args);
      // committed between the subscription's read of the wallet and its feed opening
      await expectStatus(t.request('PUT', `/wallets/status/${a.id}`, { key, body: { projectId: p.projectId, status: 'suspended' } }), 200);
      await t.app.services.eventSequencer.flush();
      return read;
    });
    try {
      await subscribed(client, 'a', CURRENT_AND_CHANGES, { id: a.id });
      await expectStatus(t.request('PUT', `/wallets/status/${a.id}`, { key, body: { projectId: p.projectId, status: 'active' } }), 200);
      const statuses = (await client.take('a', 3)).map((m) => m.data.walletChanged.status);
      expect(statuses).toEqual(['ACTIVE', 'SUSPENDED', 'ACTIVE']);
    } finally {
      get.mockRestore();
      await client.close();
    }
  });
});

describe('a subscription starts when its message arrives (CONTRACT §16, clarified with part three)', () => {
  /** A gate a test opens: the spied call waits at it. */
  function gate(): { entered: Promise<void>; wait: () => Promise<void>; open: () => void } {
    let enter!: () => void;
    let open!: () => void;
    const entered = new Promise<void>((resolve) => (enter = resolve));
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { entered, open, wait: () => (enter(), opened) };
  }
  const eventsOf = async (client: WsClient, id: string, count: number) => (await client.take(id, count)).map((m) => m.data.ledgerEvents);

  it('receives what commits while its access is checked (after the message, before the feed is open)', async () => {
    await t.app.services.eventFeeds.whenSize((size) => size === 0);
    const p = await fundedProject(t, key, { customers: 1 });
    const client = await WsClient.connect(url, key);
    const projects = t.app.services.projects;
    const check = gate();
    const real = projects.get.bind(projects);
    const get = jest.spyOn(projects, 'get').mockImplementationOnce(async (...args) => (await check.wait(), real(...args)));
    const startingPoint = jest.spyOn(t.app.services.eventHub, 'startingPoint');
    try {
      client.subscribe('e', LEDGER_EVENTS, { projectId: String(p.projectId) });
      await check.entered; // the message arrived; its access check waits
      await startingPoint.mock.results[0]?.value; // where it starts is fixed already (if it is)
      const during = await transfer(t, p, p.system.id, p.customers[0].id, 1); // committed after the message
      await t.app.services.eventSequencer.flush();
      check.open();
      await t.app.services.eventFeeds.whenSize((size) => size === 1);
      await transfer(t, p, p.system.id, p.customers[0].id, 2);
      const [first, second] = await eventsOf(client, 'e', 2);
      expect([first.data.id, second.data.amount]).toEqual([during.transaction.id, 2]);
    } finally {
      get.mockRestore();
      startingPoint.mockRestore();
      await client.close();
    }
  });

  it('receives every event although the hub, idle, read the stream top just before it subscribed', async () => {
    await t.app.services.eventFeeds.whenSize((size) => size === 0);
    const p = await fundedProject(t, key, { customers: 1 });
    const client = await WsClient.connect(url, key);
    const hub = t.app.services.eventHub;
    const repository = (hub as unknown as { repository: { streamTop(): Promise<string> } }).repository;
    const top = gate();
    const real = repository.streamTop.bind(repository);
    const streamTop = jest.spyOn(repository, 'streamTop').mockImplementationOnce(async () => (await top.wait(), real()));
    try {
      const idleRead = hub.wake(); // no listener: the hub reads the top to move its cursor there
      await top.entered;
      await subscribed(client, 'e', LEDGER_EVENTS, { projectId: String(p.projectId) });
      const missed = await transfer(t, p, p.system.id, p.customers[0].id, 1); // after the subscription
      await t.app.services.eventSequencer.flush(); // numbered, so the hub's top includes it
      top.open();
      await idleRead;
      await transfer(t, p, p.system.id, p.customers[0].id, 2);
      const [first, second] = await eventsOf(client, 'e', 2);
      expect([first.data.id, second.data.amount]).toEqual([missed.transaction.id, 2]);
    } finally {
      streamTop.mockRestore();
      await client.close();
    }
  });
});

describe('walletChanged with many subscribers', () => {
  it('reads the balances of all the wallets one delivery concerns together, not once per subscriber', async () => {
    const p = await fundedProject(t, key, { customers: 20, systemBalance: 100 });
    const client = await WsClient.connect(url, key);
    for (const [i, c] of p.customers.entries()) await subscribed(client, `w${i}`, WALLET_CHANGED, { id: c.id });
    const balancesOf = jest.spyOn(t.app.services.history, 'balancesOf');
    try {
      const legs = p.customers.map((c) => ({ amount: 1, currency: p.symbol, from: p.system.id, to: c.id }));
      await expectStatus(t.request('POST', '/transactions/batch', { key, body: { projectId: p.projectId, transfers: legs } }), 201);
      const messages = await Promise.all(p.customers.map((_, i) => client.take(`w${i}`, 1)));
      expect(messages.map(([m]) => m.data.walletChanged.balances[0].balance)).toEqual(p.customers.map(() => '1'));
      expect(balancesOf.mock.calls.length).toBeLessThanOrEqual(2); // one statement for the 20 wallets (two if the delivery splits)
    } finally {
      balancesOf.mockRestore();
      await client.close();
    }
  });
});

describe('ledgerEvents', () => {
  let p: FundedProject;
  let client: WsClient;
  beforeAll(async () => {
    p = await fundedProject(t, key, { customers: 2 });
    client = await WsClient.connect(url, key);
  });
  afterAll(() => client.close());

  it('delivers every event of the project as GET /events shows it; with types, only those', async () => {
    const [a, b] = p.customers;
    const start = (await restEvents(p, 0)).length;
    await subscribed(client, 'all', LEDGER_EVENTS, { projectId: String(p.projectId) });
    await subscribed(client, 'holds', LEDGER_EVENTS, { projectId: String(p.projectId), types: ['hold.created', 'hold.voided'] });
    await transfer(t, p, p.system.id, a.id, 10);
    const hold = (await expectStatus(t.request('POST', '/holds', { key, body: { projectId: p.projectId, amount: 3, currency: p.symbol, from: a.id, to: b.id } }), 201)).hold;
    await expectStatus(t.request('POST', `/holds/${hold.id}/void`, { key, body: { projectId: p.projectId } }), 200);

    const all = (await client.take('all', 3)).map((m) => m.data.ledgerEvents);
    const rest = await restEvents(p, start);
    expect(all).toEqual(rest.map((e: any) => ({ id: e.id, seq: e.seq, type: e.type, projectId: String(e.projectId), data: e.data, createdAt: e.created_at })));
    expect(all.map((e) => e.type)).toEqual(['transaction.posted', 'hold.created', 'hold.voided']);
    expect(all.map((e) => e.seq)).toEqual([start + 1, start + 2, start + 3]);

    const filtered = (await client.take('holds', 2)).map((m) => m.data.ledgerEvents);
    expect(filtered).toEqual(all.slice(1));
    expect(client.pending).toBe(0);
  });

  it('delivers each of 40 concurrent transfers once, in increasing seq', async () => {
    const [a, b] = p.customers;
    const after = Number((await restEvents(p, 0)).at(-1).seq);
    client.complete('holds');
    await transfer(t, p, p.system.id, b.id, 100);
    const [posted] = await client.take('all', 1);
    expect(posted.data.ledgerEvents.seq).toBe(after + 1);
    await Promise.all(Array.from({ length: 40 }, (_, i) => transfer(t, p, i % 2 ? a.id : b.id, i % 2 ? b.id : a.id, 0.01)));
    const seqs = (await client.take('all', 40)).map((m) => m.data.ledgerEvents.seq);
    expect(seqs).toEqual(Array.from({ length: 40 }, (_, i) => after + 2 + i));
  });

  it("refuses another owner's project (not_found), an unknown type and a malformed id (validation_error)", async () => {
    const theirs = await fundedProject(t, await t.issueKey('subs-events-other'), { customers: 0, systemBalance: 0 });
    const cases: [Record<string, unknown>, string, unknown][] = [
      [{ projectId: String(theirs.projectId) }, 'not_found', expect.any(Object)],
      [{ projectId: '2147483000' }, 'not_found', expect.any(Object)],
      [{ projectId: String(p.projectId), types: ['transaction.nope'] }, 'validation_error', expect.objectContaining({ field: expect.stringMatching(/^types/) })],
      [{ projectId: String(p.projectId), types: [] }, 'validation_error', expect.objectContaining({ field: 'types' })],
      [{ projectId: 'abc' }, 'validation_error', expect.objectContaining({ field: 'projectId' })],
    ];
    for (const [i, [variables, code, details]] of cases.entries()) {
      client.subscribe(`bad${i}`, LEDGER_EVENTS, variables);
      const message = await client.nextFor(`bad${i}`);
      expect(message).toEqual({ id: `bad${i}`, type: 'next', payload: { errors: [expect.objectContaining({ extensions: { code, details } })] } });
      expect(await client.nextFor(`bad${i}`)).toEqual({ id: `bad${i}`, type: 'complete' });
    }
  });
});
