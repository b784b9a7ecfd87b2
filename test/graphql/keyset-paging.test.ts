import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectStatus, fundedProject, transfer, type FundedProject } from '../support/fixtures.js';

/**
 * Newest-first connections page by keyset (issue 19): a cursor is its row's `seq`, so a row
 * posted between two pages sorts before the first page and the next page neither repeats an item
 * nor skips one. Each list is read in pages of 2 with a new row posted after the first page, and
 * the pages are compared with the whole list read afterwards.
 */
let t: TestApp;
let p: FundedProject;
const pid = () => String(p.projectId);

beforeAll(async () => {
  t = await startTestApp();
  p = await fundedProject(t, await t.issueKey('keyset-owner'), { customers: 2, systemBalance: '1000' });
  for (let i = 1; i <= 5; i++) await transfer(t, p, p.system.id, p.customers[0].id, i);
  for (let i = 1; i <= 5; i++) await createHold(i);
});
afterAll(() => t.close());

const gql = async (query: string, variables: Record<string, unknown>) => {
  const res = await t.graphql(p.key, query, variables);
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data;
};

const createHold = (amount: number) =>
  expectStatus(t.request('POST', '/holds', { key: p.key, body: { amount, currency: p.symbol, from: p.system.id, to: p.customers[1].id, projectId: p.projectId } }), 201);

interface Page {
  ids: string[];
  endCursor: string | null;
  hasNextPage: boolean;
  totalCount: number;
}

type Reader = (first: number, after: string | null) => Promise<Page>;

const pageOf = (connection: any): Page => ({
  ids: connection.edges.map((edge: any) => edge.node.id),
  endCursor: connection.pageInfo.endCursor,
  hasNextPage: connection.pageInfo.hasNextPage,
  totalCount: connection.totalCount,
});

const CONNECTION = (node: string) => `totalCount pageInfo { hasNextPage endCursor } edges { cursor node { ${node} } }`;

const holds: Reader = async (first, after) =>
  pageOf((await gql(`query($p: ID!, $first: Int!, $after: String) { holds(projectId: $p, first: $first, after: $after) { ${CONNECTION('id')} } }`, { p: pid(), first, after })).holds);

const history: Reader = async (first, after) =>
  pageOf(
    (await gql(`query($w: String!, $first: Int!, $after: String) { transactions(walletId: $w, first: $first, after: $after) { ${CONNECTION('id')} } }`, { w: p.customers[0].id, first, after }))
      .transactions,
  );

/** `metadata` is one of the fields the SQL plans leave to the resolvers: with it the DataLoader path answers, without it the plan. */
const walletTransactions =
  (node: string): Reader =>
  async (first, after) =>
    pageOf((await gql(`query($id: ID!, $first: Int!, $after: String) { wallet(id: $id) { transactions(first: $first, after: $after) { ${CONNECTION(node)} } } }`, { id: p.customers[0].id, first, after })).wallet.transactions);

/** Page 1, then `post`, then the following pages: every item of the list as it was, once each, in order. */
async function pagesAround(read: Reader, post: () => Promise<unknown>): Promise<{ paged: string[]; before: string[]; after: string[]; totals: number[] }> {
  const before = (await read(100, null)).ids;
  const pages = [await read(2, null)];
  await post();
  while (pages.at(-1)!.hasNextPage) pages.push(await read(2, pages.at(-1)!.endCursor));
  const after = (await read(100, null)).ids;
  return { paged: pages.flatMap((page) => page.ids), before, after, totals: pages.map((page) => page.totalCount) };
}

describe.each([
  ['Query.holds', holds, () => createHold(1)],
  ['Query.transactions', history, () => transfer(t, p, p.system.id, p.customers[0].id, 1)],
  ['Wallet.transactions (SQL plan)', walletTransactions('id'), () => transfer(t, p, p.system.id, p.customers[0].id, 1)],
  ['Wallet.transactions (resolvers)', walletTransactions('id metadata'), () => transfer(t, p, p.system.id, p.customers[0].id, 1)],
] as const)('%s pages by keyset', (_name, read, post) => {
  it('neither repeats nor skips an item when a new one is posted between pages', async () => {
    const { paged, before, after, totals } = await pagesAround(read, post);
    expect(new Set(paged).size).toBe(paged.length);
    expect(paged).toEqual(before);
    // the new row went to the top; the rest is the list the pages walked through
    expect(after.slice(1)).toEqual(before);
    // totalCount stays the whole list's, as it is when each page is read
    expect(totals[0]).toBe(before.length);
    expect(totals.slice(1).every((total) => total === after.length)).toBe(true);
  });

  it('refuses an offset cursor of the lists paged by offset before (validation_error on after)', async () => {
    const offset = Buffer.from('offset:1', 'utf8').toString('base64url');
    await expect(read(2, offset)).rejects.toThrow(/"code":"validation_error".*"field":"after"/);
  });

  it('answers first: 0 with no edge, the total and whether anything follows', async () => {
    const page = await read(0, null);
    expect(page.ids).toEqual([]);
    expect(page.hasNextPage).toBe(page.totalCount > 0);
  });
});

describe('rows of one instant', () => {
  it('keep the order of their unique seq, newest first, across pages', async () => {
    const [a, b] = p.customers;
    const legs = [1, 2, 3].map((amount) => ({ amount, currency: p.symbol, from: p.system.id, to: a.id }));
    const batch = await expectStatus(t.request('POST', '/transactions/batch', { key: p.key, body: { projectId: p.projectId, transfers: legs } }), 201);
    const ids: string[] = batch.transactions.map((tx: any) => tx.id);
    // one database transaction: every leg has the same date
    expect(new Set(batch.transactions.map((tx: any) => tx.date)).size).toBe(1);
    const pages: Page[] = [await history(1, null)];
    await transfer(t, p, p.system.id, b.id, 1); // another wallet's: the history stays as it was
    for (let i = 0; i < 2; i++) pages.push(await history(1, pages.at(-1)!.endCursor));
    expect(pages.map((page) => page.ids[0])).toEqual([...ids].reverse());
    expect(pages.map((page) => page.hasNextPage)).toEqual([true, true, true]);
  });
});

describe('Query.transactions as of a time', () => {
  it('pages the history up to the cut by keyset', async () => {
    const asOf = new Date().toISOString();
    await transfer(t, p, p.system.id, p.customers[0].id, 1); // after the cut: never listed
    const read = async (first: number, after: string | null) =>
      pageOf(
        (await gql(`query($w: String!, $first: Int!, $after: String, $asOf: DateTime) { transactions(walletId: $w, first: $first, after: $after, asOf: $asOf) { ${CONNECTION('id')} } }`, {
          w: p.customers[0].id,
          first,
          after,
          asOf,
        })).transactions,
      );
    const whole = await read(100, null);
    const pages = [await read(3, null)];
    while (pages.at(-1)!.hasNextPage) pages.push(await read(3, pages.at(-1)!.endCursor));
    expect(pages.flatMap((page) => page.ids)).toEqual(whole.ids);
    expect(whole.ids.length).toBe(whole.totalCount);
  });
});
