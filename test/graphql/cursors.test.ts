import { fundedProject, type FundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Every paged GraphQL list answers a malformed or out-of-range `after` with validation_error,
 * never internal_error (CONTRACT §21, clarified with part four): the offset and seq cursors of
 * src/graphql/cursors.ts, the search's keyset position (a date and a seq) and the events' seq.
 */
let t: TestApp;
let e: FundedProject;
beforeAll(async () => {
  t = await startTestApp();
  e = await fundedProject(t, { owner: 'gql-cursors' }, { customers: 2, fund: 10 });
});
afterAll(() => t.close());

const b64 = (text: string) => Buffer.from(text).toString('base64url');

/** Cursors no list ever handed out: garbage, the wrong encoding, numbers past bigint, dates PostgreSQL cannot hold. */
const ABSURD = [
  ['not base64url', '!!!'],
  ['empty', ''],
  ['2,000 characters', 'A'.repeat(2000)],
  ['an offset past bigint', b64('offset:99999999999999999999')],
  ['a seq past bigint', b64('seq:99999999999999999999')],
  ['a negative offset', b64('offset:-1')],
  ['a search position before the year 1', b64('-999999999999999:1')],
  ['a search position after the year 9999', b64('999999999999999:1')],
  ['a bare number past bigint', '99999999999999999999'],
] as const;

/** Every field with an `after` argument in schema/ledger.graphql, each reached from the root. */
const LISTS = (): [string, string][] => {
  const p = e.projectId;
  const w = e.customers[0].id;
  return [
    ['Query.projects', `projects(first: 2, after: $a) { totalCount }`],
    ['Query.assets', `assets(first: 2, after: $a) { totalCount }`],
    ['Query.wallets', `wallets(projectId: ${p}, first: 2, after: $a) { totalCount }`],
    ['Query.transactions', `transactions(walletId: "${w}", first: 2, after: $a) { totalCount }`],
    ['Query.holds', `holds(projectId: ${p}, first: 2, after: $a) { totalCount }`],
    ['Query.events', `events(projectId: ${p}, first: 2, after: $a) { pageInfo { hasNextPage } }`],
    ['Query.webhookEvents', `webhookEvents(projectId: ${p}, first: 2, after: $a) { totalCount }`],
    ['Query.balanceMonitors', `balanceMonitors(projectId: ${p}, first: 2, after: $a) { totalCount }`],
    ['Query.limits', `limits(projectId: ${p}, first: 2, after: $a) { totalCount }`],
    ['Project.assets', `project(id: ${p}) { assets(first: 2, after: $a) { totalCount } }`],
    ['Project.wallets', `project(id: ${p}) { wallets(first: 2, after: $a) { totalCount } }`],
    ['Project.transactions', `project(id: ${p}) { transactions(first: 2, after: $a) { pageInfo { hasNextPage } } }`],
    ['Project.transactions(filter)', `project(id: ${p}) { transactions(first: 2, after: $a, filter: { walletId: "${w}" }) { pageInfo { hasNextPage } } }`],
    ['Wallet.transactions', `wallet(id: "${w}") { transactions(first: 2, after: $a) { totalCount } }`],
  ];
};

describe('an absurd after on every paged list', () => {
  it('is a validation_error, never an internal_error', async () => {
    const answers: { list: string; cursor: string; codes: unknown[] }[] = [];
    for (const [list, selection] of LISTS()) {
      for (const [cursor, after] of ABSURD) {
        const res = await t.graphql(e.key, `query($a: String) { ${selection} }`, { a: after });
        answers.push({ list, cursor, codes: (res.body.errors ?? []).map((error: { extensions?: { code?: string } }) => error.extensions?.code) });
      }
    }
    expect(answers.filter((a) => a.codes.length !== 1 || a.codes[0] !== 'validation_error')).toEqual([]);
  });

  it('a good cursor still pages (the refusals above are not of every cursor)', async () => {
    const first = await t.graphql(e.key, `{ project(id: ${e.projectId}) { transactions(first: 1) { pageInfo { endCursor hasNextPage } } } }`);
    const page = first.body.data.project.transactions.pageInfo;
    expect(page.hasNextPage).toBe(true);
    const next = await t.graphql(e.key, `query($a: String) { project(id: ${e.projectId}) { transactions(first: 1, after: $a) { edges { node { id } } } } }`, { a: page.endCursor });
    expect(next.body.errors).toBeUndefined();
    expect(next.body.data.project.transactions.edges).toHaveLength(1);
  });
});
