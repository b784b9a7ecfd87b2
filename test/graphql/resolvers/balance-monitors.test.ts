import { expectStatus, fundedProject, transfer, UNKNOWN_UUID, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { WsClient, wsUrl } from '../support/ws-client.js';

/**
 * CONTRACT §20 over GraphQL: balanceMonitors, createBalanceMonitor, deleteBalanceMonitor (the
 * REST rules, extensions.code for every refusal), and a crossing delivered by ledgerEvents.
 */
let t: TestApp;
let key: string;
let p: FundedProject;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.issueKey('monitors-graphql', 'pro');
  p = await fundedProject(t, key, { customers: 2 });
});
afterAll(() => t.close());

const CREATE = `mutation($projectId: ID!, $currency: String!, $field: MonitorField!, $operator: MonitorOperator!, $value: Decimal!, $walletId: String) {
  createBalanceMonitor(projectId: $projectId, currency: $currency, field: $field, operator: $operator, value: $value, walletId: $walletId) {
    id projectId walletId currency field operator value createdAt } }`;
const LIST = `query($projectId: ID!, $walletId: String, $first: Int, $after: String) {
  balanceMonitors(projectId: $projectId, walletId: $walletId, first: $first, after: $after) {
    totalCount edges { cursor node { id walletId value } } pageInfo { hasNextPage endCursor } } }`;
const DELETE = `mutation($id: ID!) { deleteBalanceMonitor(id: $id) { id deleted } }`;

const create = (variables: Record<string, unknown>, as = key) =>
  t.graphql(as, CREATE, { projectId: String(p.projectId), currency: p.symbol, field: 'BALANCE', operator: 'LT', value: '10', ...variables });
const codeOf = (res: { body: any }) => res.body.errors?.[0]?.extensions?.code;

describe('createBalanceMonitor, balanceMonitors, deleteBalanceMonitor', () => {
  it('creates, lists (oldest first, walletId keeps that wallet’s own) and deletes', async () => {
    const [alice] = p.customers;
    const own = (await create({ walletId: alice.address, field: 'AVAILABLE', operator: 'GTE', value: '12.50' })).body.data.createBalanceMonitor;
    expect(own).toEqual({ id: expect.any(String), projectId: String(p.projectId), walletId: alice.id, currency: p.symbol, field: 'AVAILABLE', operator: 'GTE', value: '12.5', createdAt: expect.any(String) });
    const wide = (await create({ value: 0 })).body.data.createBalanceMonitor;
    expect(wide).toMatchObject({ walletId: null, value: '0' });

    const first = (await t.graphql(key, LIST, { projectId: String(p.projectId), first: 1 })).body.data.balanceMonitors;
    expect(first.totalCount).toBe(2);
    expect(first.edges.map((e: any) => e.node.id)).toEqual([own.id]);
    const next = (await t.graphql(key, LIST, { projectId: String(p.projectId), first: 1, after: first.pageInfo.endCursor })).body.data.balanceMonitors;
    expect(next.edges.map((e: any) => e.node.id)).toEqual([wide.id]);
    const mine = (await t.graphql(key, LIST, { projectId: String(p.projectId), walletId: alice.id })).body.data.balanceMonitors;
    expect(mine.edges.map((e: any) => e.node)).toEqual([{ id: own.id, walletId: alice.id, value: '12.5' }]);

    expect((await t.graphql(key, DELETE, { id: wide.id })).body.data.deleteBalanceMonitor).toEqual({ id: wide.id, deleted: true });
    expect(codeOf(await t.graphql(key, DELETE, { id: wide.id }))).toBe('not_found');
  });

  it.each([
    ['a negative value', { value: '-1' }],
    ['more decimals than the currency has', { value: '0.001' }],
    ['a value that is no number', { value: 'ten' }],
    ['an empty currency', { currency: '' }],
  ])('refuses %s: validation_error', async (_, variables) => {
    expect(codeOf(await create(variables))).toBe('validation_error');
  });

  it('refuses an unknown field or operator before execution (GraphQL validation)', async () => {
    const res = await create({ field: 'HELD' });
    expect(res.body.errors?.length).toBeGreaterThan(0);
    expect(res.body.data).toBeUndefined();
  });

  it('refuses what names nothing of the caller: not_found', async () => {
    const other = await t.issueKey('monitors-graphql-other', 'pro');
    for (const variables of [{ projectId: '999999' }, { currency: 'NOPE' }, { walletId: UNKNOWN_UUID }]) expect(codeOf(await create(variables))).toBe('not_found');
    expect(codeOf(await create({}, other))).toBe('not_found');
    expect(codeOf(await t.graphql(other, LIST, { projectId: String(p.projectId) }))).toBe('not_found');
    expect(codeOf(await t.graphql(key, DELETE, { id: 'nope' }))).toBe('validation_error');
  });

  it('refuses the 101st monitor: quota_exceeded with details', async () => {
    const q = await fundedProject(t, key, { customers: 1, name: 'graphql quota' });
    await t.db.query(
      `WITH m AS (INSERT INTO balance_monitors (project_id, asset_id, field, operator, value, created_at)
                  SELECT $1, $2, 'balance', 'gt', g, now() FROM generate_series(1, 100) g RETURNING 1)
       UPDATE assets SET monitors = monitors + (SELECT count(*) FROM m) WHERE id = $2`,
      [q.projectId, q.assetId],
    );
    const res = await t.graphql(key, CREATE, { projectId: String(q.projectId), currency: q.symbol, field: 'BALANCE', operator: 'LT', value: '1' });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'quota_exceeded', details: { quota: 'balance_monitors', limit: 100 } });
  });
});

describe('a crossing as an event', () => {
  it('reaches a ledgerEvents subscription filtered to its type, as GET /events shows it', async () => {
    const q = await fundedProject(t, key, { customers: 2, name: 'subscribed' });
    const [alice, bob] = q.customers;
    await transfer(t, q, q.system.id, alice.id, 100);
    const m = (await t.graphql(key, CREATE, { projectId: String(q.projectId), currency: q.symbol, field: 'BALANCE', operator: 'LT', value: '50', walletId: alice.id })).body.data.createBalanceMonitor;
    const client = await WsClient.connect(wsUrl(t.baseUrl), key);
    try {
      const open = t.app.services.eventFeeds.size;
      client.subscribe('crossings', 'subscription($projectId: ID!, $types: [String!]) { ledgerEvents(projectId: $projectId, types: $types) { id seq type data } }', {
        projectId: String(q.projectId),
        types: ['balance.threshold_crossed'],
      });
      await t.app.services.eventFeeds.whenSize((size) => size > open);
      const posted = await transfer(t, q, alice.id, bob.id, 60);
      const [message] = await client.take('crossings', 1);
      const event = message.data.ledgerEvents;
      const data = { monitorId: m.id, walletId: alice.id, address: alice.address, currency: q.symbol, field: 'balance', operator: 'lt', value: 50, previous: 100, current: 40, transactionId: posted.transaction.id, holdId: null };
      expect(event).toMatchObject({ type: 'balance.threshold_crossed', data });
      const rest = await expectStatus(t.request('GET', `/events?projectId=${q.projectId}&after=${event.seq - 1}&limit=1`, { key }), 200);
      expect(rest.events).toEqual([{ id: event.id, seq: event.seq, type: 'balance.threshold_crossed', projectId: q.projectId, data, created_at: posted.transaction.date }]);
      expect(client.pending).toBe(0);
    } finally {
      client.close();
    }
  });
});
