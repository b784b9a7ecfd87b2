import { fundedProject, type FundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * @skip/@include as the spec says, through the resolvers (SQL plans off): graphql-jit kept the
 * fields of a skipped occurrence of a key selected twice, and ordered the key where the skipped
 * occurrence stood; such documents now run on graphql-js.
 */
let t: TestApp;
let key: string;
let p: FundedProject;

beforeAll(async () => {
  t = await startTestApp({ graphqlSqlPlans: false });
  key = await t.issueKey('directives', 'pro');
  p = await fundedProject(t, key, { customers: 1 });
});
afterAll(() => t.close());

describe('@skip and @include on a key selected more than once', () => {
  it('leave out the fields of the skipped occurrence (a fragment spread in it too)', async () => {
    const res = await t.graphql(key, `query($id: ID!) { project(id: $id) { wallets(first: 1) { edges { node { id } } edges @skip(if: true) { node { ...W } } } } } fragment W on Wallet { address }`, {
      id: String(p.projectId),
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.project.wallets.edges).toEqual([{ node: { id: p.system.id } }]);
  });

  it('place the key where its first included occurrence stands', async () => {
    const res = await t.graphql(key, `query($id: ID!, $v: Boolean!) { project(id: $id) { ... { wallets(first: 1) @include(if: $v) { totalCount } id } type wallets(first: 1) { totalCount } } }`, { id: String(p.projectId), v: false });
    expect(res.body.errors).toBeUndefined();
    expect(Object.keys(res.body.data.project)).toEqual(['id', 'type', 'wallets']);
  });
});
