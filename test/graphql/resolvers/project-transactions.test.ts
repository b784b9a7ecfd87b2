import { fundedProject, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { ProjectTransactionsDocument, ProjectWalletsAndTransactionsDocument, type TransactionFilter } from '../generated/graphql.js';
import { run } from '../support/client.js';

/**
 * Project.transactions(filter, first, after) (CONTRACT §21): the same domain search as
 * GET /transactions/search, so the same rows for the same filters; keyset paging with no gaps or
 * repeats while postings go on; the domain's refusals as GraphQL errors.
 */
let t: TestApp;
let e: FundedProject;
let stranger: FundedProject;
let a2b: any;
let reversal: any;
beforeAll(async () => {
  t = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 500 } });
  e = await fundedProject(t, { owner: 'gql-search' }, { customers: 3, fund: 0, systemBalance: 0 });
  stranger = await fundedProject(t, { owner: 'gql-search-stranger' }, { customers: 1, systemBalance: 0 });
  const [a, b] = e.customers;
  await posted('/transactions/seed', { amount: 1000, currency: e.symbol, to: e.system.id });
  await transfer({ amount: 100, from: e.system.id, to: a.id, reference: 'fund_a' });
  await transfer({ amount: 100, from: e.system.id, to: b.id, reference: 'fundXa' });
  a2b = await transfer({ amount: 12.5, from: a.id, to: b.id, reference: 'order:1', metadata: { order: 'A-1', count: 5 } });
  await transfer({ amount: 0.01, from: b.address, to: a.address, reference: 'order:2', metadata: { order: 'A-2', count: '5' } });
  await transfer({ amount: 3, from: a.id, to: b.id, reference: 'order#3', metadata: { vip: true } });
  await transfer({ amount: 4, from: b.id, to: a.id, metadata: { vip: 'true' } });
  reversal = await posted(`/transactions/${a2b.id}/reverse`, { amount: 2 });
  await t.request('POST', '/assets', { key: e.key, body: { name: 'Gold', symbol: 'GLD', fractions: 0, projectId: e.projectId } });
  await posted('/transactions/seed', { amount: 7, currency: 'GLD', to: e.system.id });
});
afterAll(() => t.close());

async function posted(path: string, body: Record<string, unknown>): Promise<any> {
  const res = await t.request('POST', path, { key: e.key, body: { projectId: e.projectId, ...body } });
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return Array.isArray(res.body) ? res.body[0] : res.body.transaction;
}
const transfer = (body: Record<string, unknown>) => posted('/transactions', { currency: e.symbol, ...body });

/** REST search's rows, printed as GraphQL prints a Transaction (amounts as decimal strings). */
async function restRows(query: string): Promise<unknown[]> {
  const res = await t.request('GET', `/transactions/search?projectId=${e.projectId}&limit=100${query ? `&${query}` : ''}`, { key: e.key });
  if (res.status !== 200) throw new Error(`search ${query}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.transactions.map((row: any) => ({
    id: row.id,
    amount: String(row.amount),
    currency: row.currency,
    from: row.from,
    to: row.to,
    date: row.date,
    balance: String(row.balance),
    reverses: row.reverses,
    reference: row.reference,
    metadata: row.metadata,
  }));
}

const search = (filter: TransactionFilter | undefined, first = 100, after?: string, key = e.key, id = String(e.projectId)) =>
  run(t, key, ProjectTransactionsDocument, { id, filter, first, after });

async function nodes(filter: TransactionFilter | undefined): Promise<unknown[]> {
  const res = await search(filter);
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data!.project!.transactions.edges.map((edge) => edge.node);
}

const codeOf = (res: Awaited<ReturnType<typeof search>>) => res.body.errors?.[0]?.extensions.code;

describe('Project.transactions: the same rows as GET /transactions/search', () => {
  it.each<[string, () => TransactionFilter | undefined, () => string]>([
    ['no filter', () => undefined, () => ''],
    ['walletId (address): its own balance', () => ({ walletId: e.customers[0].address }), () => `walletId=${e.customers[0].address}`],
    ['from and to', () => ({ from: e.customers[1].id, to: e.customers[0].address }), () => `from=${e.customers[1].id}&to=${e.customers[0].address}`],
    ['from @mint', () => ({ from: '@mint' }), () => 'from=@mint'],
    ['currency and amounts', () => ({ currency: e.symbol, minAmount: '3', maxAmount: 12.5 }), () => `currency=${e.symbol}&minAmount=3&maxAmount=12.5`],
    ['since and until', () => ({ since: a2b.date, until: reversal.date }), () => `since=${encodeURIComponent(a2b.date)}&until=${encodeURIComponent(reversal.date)}`],
    ['reference', () => ({ reference: 'order:1' }), () => 'reference=order:1'],
    ['referencePrefix, taken literally', () => ({ referencePrefix: 'fund_' }), () => 'referencePrefix=fund_'],
    ['reverses', () => ({ reverses: a2b.id }), () => `reverses=${a2b.id}`],
    ['metadata pairs (JSON text of numbers and booleans)', () => ({ metadata: [{ key: 'count', value: '5' }] }), () => 'metadata.count=5'],
    ['two metadata pairs', () => ({ metadata: [{ key: 'vip', value: 'true' }, { key: 'order', value: 'A-1' }] }), () => 'metadata.vip=true&metadata.order=A-1'],
  ])('%s', async (_name, filter, query) => {
    const expected = await restRows(query());
    expect(await nodes(filter())).toEqual(expected);
  });

  it('finds what it should (not merely what REST finds)', async () => {
    expect(await nodes({ reference: 'order:1' })).toEqual([expect.objectContaining({ id: a2b.id, amount: '12.5' })]);
    expect(await nodes({ metadata: [{ key: 'vip', value: 'true' }] })).toHaveLength(2);
    expect(await nodes({ referencePrefix: '%' })).toEqual([]);
  });
});

describe('Project.transactions: paging', () => {
  it('first/after walk every row once, newest first, while a posting lands between pages', async () => {
    const before = ((await restRows('')) as { id: string }[]).map((row) => row.id);
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    for (;;) {
      const res = await search(undefined, 3, after);
      const connection = res.body.data!.project!.transactions;
      seen.push(...connection.edges.map((edge) => edge.node.id));
      expect(connection.pageInfo.hasPreviousPage).toBe(after !== undefined);
      expect(connection.pageInfo.endCursor).toBe(connection.edges.at(-1)?.cursor ?? null);
      pages += 1;
      // a posting after the first page is newer than every row still to come: it is not in this walk
      if (pages === 1) await transfer({ amount: 1, from: e.system.id, to: e.customers[2].id, reference: 'between-pages' });
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor!;
    }
    expect(seen).toEqual(before);
    expect(pages).toBe(Math.ceil(before.length / 3));
    // and a fresh walk starts with it
    const fresh = await search(undefined, 1);
    expect(fresh.body.data!.project!.transactions.edges[0].node.reference).toBe('between-pages');
  });

  it('first: 0 gives no edges but tells whether there are any', async () => {
    const res = await search({ reference: 'order:1' }, 0);
    expect(res.body.data!.project!.transactions).toEqual({ edges: [], pageInfo: { hasNextPage: true, hasPreviousPage: false, startCursor: null, endCursor: null } });
    const none = await search({ reference: 'no-such' }, 0);
    expect(none.body.data!.project!.transactions.pageInfo.hasNextPage).toBe(false);
  });
});

describe('Project.transactions: refusals', () => {
  it.each<[string, TransactionFilter | undefined, number, string | undefined, string]>([
    ['first above 100', undefined, 101, undefined, 'first'],
    ['an after that is no position', undefined, 5, 'not-a-cursor!', 'after'],
    ['a minAmount that is no decimal', { minAmount: 'ten' }, 5, undefined, 'minAmount'],
    ['too many decimals for the currency', { currency: 'PTS', minAmount: '0.001' }, 5, undefined, 'minAmount'],
    ['an empty metadata key', { metadata: [{ key: '', value: 'x' }] }, 5, undefined, 'metadata.0.key'],
    ['an empty referencePrefix', { referencePrefix: '' }, 5, undefined, 'referencePrefix'],
    ['a reverses that is no id', { reverses: 'nope' }, 5, undefined, 'reverses'],
  ])('%s: validation_error', async (_name, filter, first, after, field) => {
    const res = await search(filter, first, after);
    expect(codeOf(res)).toBe('validation_error');
    expect(JSON.stringify(res.body.errors![0])).toContain(field);
    expect(res.body.data?.project ?? null).toBeNull();
  });

  it('a since that is no timestamp: validation_error (the DateTime scalar)', async () => {
    const res = await search({ since: 'yesterday' });
    expect(res.status).toBeLessThan(500);
    expect(codeOf(res)).toBe('validation_error');
  });

  it("another owner's project, or a wallet of another project: not_found", async () => {
    expect(codeOf(await search(undefined, 5, undefined, e.key, String(stranger.projectId)))).toBe('not_found');
    const res = await search({ walletId: stranger.customers[0].id });
    expect(codeOf(res)).toBe('not_found');
    expect(res.body.errors![0].path).toEqual(['project', 'transactions']);
    expect(codeOf(await search({ from: stranger.system.address }))).toBe('not_found');
    expect(codeOf(await search({ currency: 'NOPE' }))).toBe('not_found');
  });
});

describe('Project.transactions and the SQL plans', () => {
  it('a query mixing planned fields (wallets) and transactions is answered by the resolvers, with the right rows', async () => {
    const res = await run(t, e.key, ProjectWalletsAndTransactionsDocument, { id: String(e.projectId), filter: { walletId: e.customers[0].id } });
    expect(res.body.errors).toBeUndefined();
    const project = res.body.data!.project!;
    const expected = ((await restRows(`walletId=${e.customers[0].id}`)) as { id: string; balance: string }[]).slice(0, 5);
    expect(project.transactions.edges.map((edge) => edge.node)).toEqual(expected.map(({ id, balance }) => ({ id, balance })));
    expect(project.transactions.pageInfo.hasNextPage).toBe(true);
    expect(project.name).toBe('gql-search economy');
    expect(project.wallets.totalCount).toBe(4);
    expect(project.wallets.edges.map((edge) => edge.node.id)).toEqual([e.system.id, e.customers[0].id]);
    // a plan answers in one statement; the resolvers need the project, then the search's own
    expect(res.statements).toBeGreaterThan(2);
  });
});
