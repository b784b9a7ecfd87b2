import { expectStatus, fundedProject, transfer, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { AssetsDocument, HistoryDocument, ProjectDocument, ProjectsDocument, WalletDocument, WalletsDocument, WebhookEventsDocument } from '../generated/graphql.js';
import { data, raw } from '../support/client.js';

/** The same data read through REST and through GraphQL gives the same values (GraphQL amounts are decimal strings). */
let t: TestApp;
let key: string;
let p: FundedProject;

beforeAll(async () => {
  t = await startTestApp();
  key = await t.issueKey('parity', 'enterprise');
  p = await fundedProject(t, key, { customers: 3, systemBalance: 5000, fractions: 3 });
  await fundedProject(t, key, { name: 'second', symbol: 'GEM' });
  await fundedProject(t, key, { name: 'third', symbol: 'ORB' });
  await expectStatus(t.request('POST', '/assets', { key, body: { name: 'Stars', symbol: 'STAR', fractions: 0, projectId: p.projectId } }), 201);
  for (let i = 1; i <= 7; i += 1) await transfer(t, p, p.system.id, p.customers[i % 3].id, i + 0.125);
  await transfer(t, p, p.customers[1].id, p.customers[2].id, 0.5);
  await expectStatus(t.request('POST', '/webhook', { key, body: { flowId: 'reward', projectId: p.projectId, values: { to: p.customers[0].id, amount: 3 } } }), 200);
  await expectStatus(t.request('POST', '/webhook', { key, body: { flowId: 'signup', projectId: p.projectId, values: { user: 'u1' } } }), 200);
});
afterAll(() => t.close());

const restTransaction = (tx: any) => tx;
const gqlTransaction = (tx: any) => ({
  id: tx.id,
  amount: Number(tx.amount),
  currency: tx.currency,
  from: tx.from,
  to: tx.to,
  date: tx.date,
  balance: Number(tx.balance),
  reverses: tx.reverses,
  reversedAmount: Number(tx.reversedAmount),
  reference: tx.reference,
  metadata: tx.metadata,
});
const gqlBalance = (b: any) => ({ ...b, balance: Number(b.balance), held: Number(b.held), available: Number(b.available), creditLimit: Number(b.creditLimit), incoming: Number(b.incoming) });

describe('reads', () => {
  it('Wallet.transactions.totalCount: every transaction of the wallet, as the totals of GET /transactions (one batched statement)', async () => {
    const query = `query($id: ID!) { project(id: $id) { wallets(first: 10) { edges { node { id transactions(first: 1) { totalCount } } } } } }`;
    const res = await raw(t, key, query, { id: String(p.projectId) });
    expect(res.body.errors).toBeUndefined();
    const counts = new Map<string, number>(res.body.data.project.wallets.edges.map((e: any) => [e.node.id, e.node.transactions.totalCount]));
    for (const wallet of [p.system, ...p.customers]) {
      const rest = await expectStatus(t.request('GET', `/transactions?walletId=${wallet.id}&limit=1`, { key }), 200);
      expect(counts.get(wallet.id)).toBe(rest.pagination.total); // one currency moved in this project
    }
    // through the resolvers (SQL plans off, same database), totalCount costs one batched statement
    const resolvers = await startTestApp({ databaseUrl: t.databaseUrl, graphqlSqlPlans: false });
    try {
      // the lower of two runs: a key whose 5 s auth cache just expired costs one more statement
      const statements = async (q: string) => Math.min(...(await Promise.all([0, 1].map(async () => (await raw(resolvers, key, q, { id: String(p.projectId) })).statements))));
      expect(await statements(query)).toBe((await statements(query.replace('totalCount', 'edges { cursor }'))) + 1);
    } finally {
      await resolvers.close();
    }
  });

  it('project, its primary asset and its assets: as GET /projects/{id} and GET /assets?projectId=', async () => {
    const rest = await expectStatus(t.request('GET', `/projects/${p.projectId}`, { key }), 200);
    const assets = await expectStatus(t.request('GET', `/assets?projectId=${p.projectId}`, { key }), 200);
    const { project } = await data(t, key, ProjectDocument, { id: String(p.projectId) });
    expect(project).toMatchObject({
      id: String(rest.id),
      name: rest.name,
      type: rest.type,
      exchangeRate: rest.exchangeRate,
      supportExchangeRate: rest.supportExchangeRate,
      metadata: rest.metadata,
      assetId: rest.asset_id,
      owner: rest.owner,
      createdAt: rest.created_at,
      updatedAt: rest.updated_at,
    });
    expect(project!.asset!.id).toBe(rest.asset_id);
    expect(project!.assets.totalCount).toBe(assets.pagination.total);
    expect(project!.assets.edges.map((e) => e.node)).toEqual(
      assets.assets.map((a: any) => ({ id: a.id, projectId: String(a.projectId), name: a.name, symbol: a.symbol, fractions: a.fractions, owner: a.owner, createdAt: a.created_at, updatedAt: a.updated_at })),
    );
  });

  it('projects, page by page: as GET /projects?page=&limit=', async () => {
    const first = await data(t, key, ProjectsDocument, { first: 2 });
    const second = await data(t, key, ProjectsDocument, { first: 2, after: first.projects.pageInfo.endCursor });
    const restPage2 = await expectStatus(t.request('GET', '/projects?page=2&limit=2', { key }), 200);
    expect(first.projects.totalCount).toBe(restPage2.pagination.total);
    expect(first.projects.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(second.projects.edges.map((e) => Number(e.node.id))).toEqual(restPage2.projects.map((x: any) => x.id));
    expect(second.projects.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  it('assets across projects, with a cursor that does not fall on a page boundary', async () => {
    const rest = await expectStatus(t.request('GET', '/assets?limit=100', { key }), 200);
    const one = await data(t, key, AssetsDocument, { first: 1 });
    const next = await data(t, key, AssetsDocument, { first: 2, after: one.assets.pageInfo.endCursor });
    expect([...one.assets.edges, ...next.assets.edges].map((e) => e.node.id)).toEqual(rest.assets.slice(0, 3).map((a: any) => a.id));
    expect(next.assets.totalCount).toBe(rest.pagination.total);
  });

  it('a wallet with its balances and 20 latest transactions: as GET /wallets/{id}', async () => {
    const rest = await expectStatus(t.request('GET', `/wallets/${p.system.id}`, { key }), 200);
    const { wallet } = await data(t, key, WalletDocument, { id: p.system.id });
    expect(wallet).toMatchObject({ id: rest.id, address: rest.address, projectId: String(rest.projectId), createdAt: rest.created_at, status: 'ACTIVE', type: 'SYSTEM' });
    expect(wallet!.balances.map(gqlBalance)).toEqual(rest.balance);
    expect(wallet!.transactions.edges.map((e) => gqlTransaction(e.node))).toEqual(rest.transactions.map(restTransaction));
  });

  it("a project's wallets of one type: as GET /wallets/customer?projectId=", async () => {
    const rest = await expectStatus(t.request('GET', `/wallets/customer?projectId=${p.projectId}`, { key }), 200);
    const { wallets } = await data(t, key, WalletsDocument, { projectId: String(p.projectId), type: 'CUSTOMER', first: 20 });
    expect(wallets.totalCount).toBe(rest.pagination.total);
    expect(wallets.edges.map((e) => e.node.id)).toEqual(rest.wallets.map((w: any) => w.id));
  });

  it('a wallet history in one currency, page by page: as GET /transactions', async () => {
    const rest = await expectStatus(t.request('GET', `/transactions?walletId=${p.system.id}&page=2&limit=3`, { key }), 200);
    const page1 = await data(t, key, HistoryDocument, { walletId: p.system.id, first: 3 });
    const page2 = await data(t, key, HistoryDocument, { walletId: p.system.id, first: 3, after: page1.transactions!.pageInfo.endCursor });
    expect(gqlBalance(page2.transactions!.balance)).toEqual(rest.balance);
    expect(page2.transactions!.totalCount).toBe(rest.pagination.total);
    expect(page2.transactions!.edges.map((e) => gqlTransaction(e.node))).toEqual(rest.transactions.map(restTransaction));
  });

  it('a wallet history by address within a project, in a non-primary currency', async () => {
    const rest = await expectStatus(t.request('GET', `/transactions?walletId=${p.customers[0].address}&projectId=${p.projectId}&currency=STAR`, { key }), 200);
    const gql = await data(t, key, HistoryDocument, { walletId: p.customers[0].address, projectId: String(p.projectId), currency: 'STAR', first: 20 });
    expect(gqlBalance(gql.transactions!.balance)).toEqual(rest.balance);
    expect(gql.transactions!.totalCount).toBe(0);
  });

  it('webhook events: every stored call, oldest first', async () => {
    const { webhookEvents } = await data(t, key, WebhookEventsDocument, { projectId: String(p.projectId), first: 1 });
    expect(webhookEvents.totalCount).toBe(2);
    expect(webhookEvents.edges[0].node).toMatchObject({ flowId: 'reward', success: true, values: { to: p.customers[0].id, amount: 3 } });
    const next = await data(t, key, WebhookEventsDocument, { projectId: String(p.projectId), first: 5, after: webhookEvents.pageInfo.endCursor });
    expect(next.webhookEvents.edges.map((e) => e.node.flowId)).toEqual(['signup']);
    expect(next.webhookEvents.pageInfo.hasNextPage).toBe(false);
  });
});
