import { fundedProject, transfer, type FundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { ProjectWalletsDocument } from './generated/graphql.js';
import { raw, run } from './support/client.js';

let t: TestApp;
/** The same service on the same database with SQL plans off: every field through its resolver and DataLoaders. */
let resolvers: TestApp;
let key: string;
let small: FundedProject;
let large: FundedProject;

/** A project with `wallets` wallets (one system, the rest customers), each customer paid twice. */
async function projectWith(wallets: number): Promise<FundedProject> {
  const p = await fundedProject(t, key, { name: `${wallets} wallets`, customers: wallets - 1, systemBalance: 100_000 });
  for (const [i, customer] of p.customers.entries()) {
    await transfer(t, p, p.system.id, customer.id, 10 + i);
    await transfer(t, p, p.system.id, customer.id, 1.25);
  }
  return p;
}

beforeAll(async () => {
  t = await startTestApp();
  key = await t.issueKey('statements', 'enterprise');
  small = await projectWith(10);
  large = await projectWith(100);
  resolvers = await startTestApp({ databaseUrl: t.databaseUrl, graphqlSqlPlans: false });
});
afterAll(async () => {
  await resolvers.close();
  await t.close();
});

describe.each([
  { path: 'one SQL plan', app: () => t, planned: 'sql' },
  { path: 'resolvers and DataLoaders', app: () => resolvers, planned: null },
])('nested query: project → wallets → balances + transactions(first: 5), through $path', ({ app, planned }) => {
  const nested = (p: FundedProject, first: number) => run(app(), key, ProjectWalletsDocument, { id: String(p.projectId), first, recent: 5 });

  it('costs the same number of statements for 10 and for 100 wallets (at most 6; 1 for the plan)', async () => {
    const ten = await nested(small, 10);
    const hundred = await nested(large, 100);
    expect(ten.body.errors).toBeUndefined();
    expect(hundred.body.errors).toBeUndefined();
    expect(ten.body.data?.project?.wallets.edges).toHaveLength(10);
    expect(hundred.body.data?.project?.wallets.edges).toHaveLength(100);
    expect(ten.statements).toBe(hundred.statements);
    expect(hundred.statements).toBeLessThanOrEqual(planned ? 1 : 6);
    expect(hundred.headers.get('x-graphql-plan')).toBe(planned);
  });

  it('returns each wallet its own balances and newest transactions', async () => {
    const res = await nested(large, 100);
    const edges = res.body.data!.project!.wallets.edges;
    const customer = edges.find((edge) => edge.node.id === large.customers[41].id)!.node;
    expect(customer.balances).toEqual([{ account: large.customers[41].address, currency: 'PTS', balance: '52.25' }]);
    expect(customer.transactions.edges.map((edge) => edge.node.amount)).toEqual(['1.25', '51']);
    expect(customer.transactions.edges.map((edge) => edge.node.balance)).toEqual(['52.25', '51']);
    const system = edges[0].node;
    expect(system.transactions.edges).toHaveLength(5);
    expect(system.transactions.pageInfo.hasNextPage).toBe(true);
  });
});

describe.each([
  { path: 'one SQL plan', app: () => t, planned: 'sql' },
  { path: 'resolvers and DataLoaders', app: () => resolvers, planned: null },
])('_entities of Wallets, through $path', ({ app, planned }) => {
  const entities = (ids: string[]) =>
    raw(app(), key, 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Wallet { id address balances { currency balance } } } }', {
      r: ids.map((id) => ({ __typename: 'Wallet', id })),
    });

  it('resolves 50 Wallet representations with a constant number of statements (at most 3; 1 for the plan)', async () => {
    const ids = [large.system.id, ...large.customers.map((c) => c.id)];
    const five = await entities(ids.slice(0, 5));
    const fifty = await entities(ids.slice(0, 50));
    expect(fifty.body.errors).toBeUndefined();
    expect(fifty.body.data._entities).toHaveLength(50);
    expect(fifty.body.data._entities.map((w: { id: string }) => w.id)).toEqual(ids.slice(0, 50));
    expect(fifty.statements).toBe(five.statements);
    expect(fifty.statements).toBeLessThanOrEqual(planned ? 1 : 3);
    expect(fifty.headers.get('x-graphql-plan')).toBe(planned);
  });
});

describe('_entities of Transactions (resolvers)', () => {
  it('resolves 50 Transaction representations in one statement, with their wallets in one more', async () => {
    const history = await run(t, key, ProjectWalletsDocument, { id: String(large.projectId), first: 50, recent: 1 });
    const ids = history.body.data!.project!.wallets.edges.slice(1).flatMap((edge) => edge.node.transactions.edges.map((tx) => tx.node.id));
    expect(ids).toHaveLength(49);
    const res = await raw(t, key, 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Transaction { id amount balance toWallet { id } } } }', {
      r: ids.map((id) => ({ __typename: 'Transaction', id })),
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data._entities.map((tx: { id: string }) => tx.id)).toEqual(ids);
    expect(res.body.data._entities[0]).toMatchObject({ amount: '1.25', balance: null });
    expect(res.statements).toBeLessThanOrEqual(2);
  });
});
