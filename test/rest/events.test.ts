import { jest } from '@jest/globals';
import { OutboxRepository } from '../../src/domain/outbox/outbox.repository.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { fundedProject, ISO_MS, UUID_RE as UUID, type FundedProject } from '../support/fixtures.js';

/** The outbox over REST and GraphQL (CONTRACT §16): what each change writes, paging, tenancy. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ lotSweep: { intervalMs: 50, batchSize: 100 } });
});
afterAll(() => t.close());

const post = (e: FundedProject, path: string, body: Record<string, unknown>) => t.request('POST', path, { key: e.key, body: { projectId: e.projectId, ...body } });
const transfer = (e: FundedProject, body: Record<string, unknown>) => post(e, '/transactions', { currency: e.symbol, ...body });

/** The project's events: GET /events shows every change committed before it (it numbers them first). */
async function eventsOf(e: FundedProject, query = ''): Promise<any[]> {
  const res = await t.request('GET', `/events?projectId=${e.projectId}&limit=100${query}`, { key: e.key });
  expect(res.status).toBe(200);
  return res.body.events;
}

/** Waits (polling the numbered stream, no fixed sleep) until the project has an event of `type` about `subjectId`. */
async function eventually(e: FundedProject, type: string, subjectId: string, timeoutMs = 5_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = (await eventsOf(e)).find((x) => x.type === type && x.data.id === subjectId);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no ${type} for ${subjectId} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('GET /events: what each change writes', () => {
  it('a transfer writes transaction.posted whose data is the transaction as POST /transactions answered it', async () => {
    const e = await fundedProject(t, { owner: 'events-transfer' }, { fund: 50 });
    const before = (await eventsOf(e)).length;
    const [a, b] = e.customers;
    const res = await transfer(e, { amount: 12.5, from: a.id, to: b.address, reference: 'order-7', metadata: { order: 7 } });
    expect(res.status).toBe(201);
    const events = await eventsOf(e);
    expect(events).toHaveLength(before + 1);
    const event = events.at(-1);
    expect(event).toEqual({ id: expect.stringMatching(UUID), seq: before + 1, type: 'transaction.posted', projectId: e.projectId, data: res.body.transaction, created_at: expect.stringMatching(ISO_MS) });
    expect(event.created_at).toBe(res.body.transaction.date);
    // the seed and the funding transfers of the set-up came first, seq 1, 2, 3 …
    expect(events.map((x) => x.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events[0]).toMatchObject({ type: 'transaction.posted', data: { from: '@mint', amount: 1000 } });
  });

  it('a reversal and each batch leg write transaction.posted; a refused posting or batch writes nothing', async () => {
    const e = await fundedProject(t, { owner: 'events-verbs' }, { fund: 10, customers: 3 });
    const [a, b, c] = e.customers;
    const posted = (await transfer(e, { amount: 4, from: a.id, to: b.id })).body.transaction;
    const start = (await eventsOf(e)).length;
    expect((await transfer(e, { amount: 1000, from: a.id, to: b.id })).body.code).toBe('insufficient_funds');
    const refusedBatch = await post(e, '/transactions/batch', { transfers: [{ amount: 1, currency: 'PTS', from: c.id, to: a.id }, { amount: 1000, currency: 'PTS', from: a.id, to: b.id }] });
    expect(refusedBatch.status).toBe(409);
    expect(await eventsOf(e)).toHaveLength(start);
    const reversal = (await post(e, `/transactions/${posted.id}/reverse`, { amount: 1 })).body.transaction;
    const batch = (await post(e, '/transactions/batch', { transfers: [{ amount: 1, currency: 'PTS', from: c.id, to: a.id }, { amount: 2, currency: 'PTS', from: a.id, to: c.id }] })).body;
    const events = (await eventsOf(e)).slice(start);
    expect(events.map((x) => [x.type, x.data])).toEqual([
      ['transaction.posted', reversal],
      ['transaction.posted', batch.transactions[0]],
      ['transaction.posted', batch.transactions[1]],
    ]);
    // the original's event still shows it as posted (reversedAmount 0 then), while GET shows the reversal
    const original = (await eventsOf(e)).find((x) => x.data.id === posted.id);
    expect(original.data.reversedAmount).toBe(0);
  });

  it('holds write hold.created, hold.captured (with the capture posted) and hold.voided, each with the hold as it was then', async () => {
    const e = await fundedProject(t, { owner: 'events-holds' }, { fund: 100 });
    const [a, b] = e.customers;
    const start = (await eventsOf(e)).length;
    const created = (await post(e, '/holds', { amount: 30, currency: 'PTS', from: a.id, to: b.id, expiresIn: 600 })).body.hold;
    const captured = (await post(e, `/holds/${created.id}/capture`, { amount: 10 })).body;
    const other = (await post(e, '/holds', { amount: 5, currency: 'PTS', from: a.id, to: b.id })).body.hold;
    const voided = (await post(e, `/holds/${other.id}/void`, {})).body.hold;
    const events = (await eventsOf(e)).slice(start);
    expect(events.map((x) => x.type)).toEqual(['hold.created', 'transaction.posted', 'hold.captured', 'hold.created', 'hold.voided']);
    expect(events[0].data).toEqual(created);
    expect(events[1].data).toEqual(captured.transaction);
    expect(events[2].data).toEqual({ ...captured.hold, matured: false }); // a capture by a call (CONTRACT §26)
    expect(events[2].data).toMatchObject({ status: 'captured', capturedAmount: 10, transactionId: captured.transaction.id });
    expect(events[3].data).toEqual(other);
    expect(events[4].data).toEqual(voided);
  });

  it('a hold that expires writes hold.expired, dated its expires_at, without any posting touching it', async () => {
    const e = await fundedProject(t, { owner: 'events-hold-expiry' }, { fund: 100 });
    const [a, b] = e.customers;
    const hold = (await post(e, '/holds', { amount: 30, currency: 'PTS', from: a.id, to: b.id, expiresIn: 1 })).body.hold;
    const expired = await eventually(e, 'hold.expired', hold.id);
    expect(expired.created_at).toBe(hold.expires_at);
    expect(expired.data).toEqual({ ...hold, status: 'expired', updated_at: hold.expires_at });
    expect((await t.request('GET', `/holds/${hold.id}`, { key: e.key })).body.hold).toEqual(expired.data);
    expect((await eventsOf(e)).filter((x) => x.type === 'hold.expired')).toHaveLength(1);
  });

  it('a status change writes wallet.status_changed with the wallet (no balances); the same status again writes none', async () => {
    const e = await fundedProject(t, { owner: 'events-status' }, { customers: 1 });
    const [a] = e.customers;
    const start = (await eventsOf(e)).length;
    const suspended = await t.request('PUT', `/wallets/status/${a.id}`, { key: e.key, body: { projectId: e.projectId, status: 'suspended' } });
    expect(suspended.status).toBe(200);
    await t.request('PUT', `/wallets/status/${a.id}`, { key: e.key, body: { projectId: e.projectId, status: 'suspended' } });
    const events = (await eventsOf(e)).slice(start);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'wallet.status_changed', data: { id: a.id, status: 'suspended', address: a.address, type: 'customer', projectId: e.projectId } });
    expect(Object.keys(events[0].data).sort()).toEqual(['address', 'created_at', 'id', 'projectId', 'status', 'type', 'updated_at']);
    expect(events[0].created_at).toBe(events[0].data.updated_at);
  });

  it('an expiring lot writes points.expired (its expiry transaction, the customer balance), and no transaction.posted for it', async () => {
    const e = await fundedProject(t, { owner: 'events-points' }, { customers: 1 });
    const [a] = e.customers;
    const assets = (await t.request('GET', `/assets?projectId=${e.projectId}`, { key: e.key })).body.assets;
    expect((await t.request('PUT', `/assets/${assets[0].id}`, { key: e.key, body: { expiresAfterSeconds: 1 } })).status).toBe(200);
    const credit = (await transfer(e, { amount: 7, from: e.system.id, to: a.id })).body.transaction;
    const expiry = await eventually(e, 'points.expired', (await waitForExpiry(a.id)).id);
    expect(expiry.data).toMatchObject({ amount: 7, currency: 'PTS', balance: 0, from: a.address, to: '@expired', reverses: null, reversedAmount: 0, reference: null, metadata: {} });
    expect(Date.parse(expiry.data.date) - Date.parse(credit.date)).toBe(1000);
    const types = (await eventsOf(e)).filter((x) => x.data.id === expiry.data.id).map((x) => x.type);
    expect(types).toEqual(['points.expired']);
  });
});

/** The expiry transaction of a wallet's lot, once the sweeper has posted it. */
async function waitForExpiry(walletId: string): Promise<{ id: string }> {
  for (const until = Date.now() + 5_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 25))) {
    const [row] = await t.db.query<{ id: string }>(`SELECT id FROM transactions WHERE from_wallet_id = $1 AND kind = 'expiry'`, [walletId]);
    if (row) return row;
  }
  throw new Error('the lot did not expire within 5 s');
}

describe('GET /events: read your writes', () => {
  it('shows a change answered a moment ago even while no sequencer numbers in the background, over REST and GraphQL', async () => {
    const e = await fundedProject(t, { owner: 'events-ryw' }, { fund: 1, customers: 2 });
    const sequencer = t.app.services.eventSequencer;
    await sequencer.stop(); // no numbering after commits, no tick: only the read itself can number
    try {
      const posted = await transfer(e, { amount: 0.25, from: e.system.id, to: e.customers[0].id });
      expect(posted.status).toBe(201);
      const rest = await eventsOf(e);
      expect(rest.at(-1)).toMatchObject({ type: 'transaction.posted', data: { id: posted.body.transaction.id } });
      const again = await transfer(e, { amount: 0.25, from: e.system.id, to: e.customers[1].id });
      const gql = await t.graphql(e.key, `query($p: ID!) { events(projectId: $p, first: 50) { totalCount edges { node { type data } } } }`, { p: String(e.projectId) });
      const nodes = gql.body.data.events.edges.map((edge: any) => edge.node);
      expect(nodes.at(-1)).toMatchObject({ type: 'transaction.posted', data: { id: again.body.transaction.id } });
      expect(gql.body.data.events.totalCount).toBe(nodes.length);
    } finally {
      sequencer.start();
    }
  });
});

describe('GET /events: read your writes under load', () => {
  it('does not wait for the background numbering, which goes on as long as commits keep coming', async () => {
    const e = await fundedProject(t, { owner: 'events-ryw-busy' }, { fund: 1, customers: 2 });
    let release!: () => void;
    const endless = new Promise<void>((resolve) => (release = () => resolve()));
    const numbering = OutboxRepository.prototype.sequenceCommitted;
    // the background run's numbering (of every project) never returns, as if commits kept it busy; a read's own (of its project) runs
    const sequence = jest
      .spyOn(OutboxRepository.prototype, 'sequenceCommitted')
      .mockImplementation(function (this: OutboxRepository, options = {}) {
        return options.projectId === undefined ? endless : numbering.call(this, options);
      });
    try {
      const posted = await transfer(e, { amount: 0.25, from: e.system.id, to: e.customers[0].id });
      expect(posted.status).toBe(201);
      expect((await eventsOf(e)).at(-1)).toMatchObject({ type: 'transaction.posted', data: { id: posted.body.transaction.id } });
      expect(sequence).toHaveBeenCalled();
    } finally {
      sequence.mockRestore();
      release();
    }
  });
});

describe('GET /events: paging, validation, tenancy', () => {
  let e: FundedProject;
  beforeAll(async () => {
    e = await fundedProject(t, { owner: 'events-paging' }, { fund: 1, customers: 2 });
    for (let i = 0; i < 9; i++) await transfer(e, { amount: 0.01, from: e.customers[i % 2].id, to: e.customers[(i + 1) % 2].id });
  });

  it('pages with after and limit, oldest first, without gaps or repeats', async () => {
    const all = (await t.request('GET', `/events?projectId=${e.projectId}&limit=100`, { key: e.key })).body;
    expect(all.events).toHaveLength(12);
    expect(all.pagination).toEqual({ limit: 100, after: 0, nextAfter: 12, hasMore: false });
    const seen: number[] = [];
    let after = 0;
    for (;;) {
      const page = (await t.request('GET', `/events?projectId=${e.projectId}&after=${after}&limit=5`, { key: e.key })).body;
      seen.push(...page.events.map((x: any) => x.seq));
      expect(page.pagination.after).toBe(after);
      if (!page.pagination.hasMore) {
        expect(page.pagination.nextAfter).toBe(12);
        break;
      }
      after = page.pagination.nextAfter;
    }
    expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const empty = (await t.request('GET', `/events?projectId=${e.projectId}&after=12`, { key: e.key })).body;
    expect(empty).toEqual({ events: [], pagination: { limit: 20, after: 12, nextAfter: 12, hasMore: false } });
  });

  it.each([
    ['', 'projectId'],
    ['&limit=0', 'limit'],
    ['&limit=101', 'limit'],
    ['&after=-1', 'after'],
    ['&after=x', 'after'],
    ['&after=9007199254740992', 'after'], // past the largest exact integer
    ['&after=99999999999999999999', 'after'], // past bigint
    ['&after=1e3', 'after'],
  ])('refuses %s with 400', async (query, field) => {
    const base = query === '' ? '/events' : `/events?projectId=${e.projectId}${query}`;
    const res = await t.request('GET', base, { key: e.key });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', message: expect.any(String) });
    expect(JSON.stringify(res.body.details)).toContain(field);
  });

  it("another owner's project is 404 over REST and GraphQL", async () => {
    const intruder = await t.issueKey('events-intruder', 'pro');
    expect((await t.request('GET', `/events?projectId=${e.projectId}`, { key: intruder })).status).toBe(404);
    const res = await t.graphql(intruder, `query($p: ID!) { events(projectId: $p) { totalCount edges { node { id } } } }`, { p: String(e.projectId) });
    expect(res.body.errors[0].extensions.code).toBe('not_found');
  });

  it('GraphQL events pages like REST: seq as cursor, data the REST resource', async () => {
    const rest = (await t.request('GET', `/events?projectId=${e.projectId}&limit=100`, { key: e.key })).body.events;
    const query = `query($p: ID!, $after: String) { events(projectId: $p, first: 5, after: $after) {
      totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id seq type projectId data createdAt } } } }`;
    const nodes: any[] = [];
    let after: string | null = null;
    for (;;) {
      const res: any = await t.graphql(e.key, query, { p: String(e.projectId), after });
      expect(res.body.errors).toBeUndefined();
      const page = res.body.data.events;
      expect(page.totalCount).toBe(12);
      nodes.push(...page.edges.map((edge: any) => edge.node));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(nodes).toEqual(rest.map((x: any) => ({ id: x.id, seq: x.seq, type: x.type, projectId: String(x.projectId), data: x.data, createdAt: x.created_at })));
  });
});
