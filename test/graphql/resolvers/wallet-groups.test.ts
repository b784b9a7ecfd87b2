import { fundedProject, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { raw } from '../support/client.js';

/** CONTRACT §29 over GraphQL: the mutations for each verb, with the REST rules and codes; Wallet.group. */
let t: TestApp;
let p: FundedProject;

beforeAll(async () => {
  t = await startTestApp();
  p = await fundedProject(t, { owner: 'groups-graphql' }, { customers: 2, fund: 5 });
});
afterAll(() => t.close());

const gql = async (query: string, variables: Record<string, unknown> = {}) => (await raw(t, p.key, query, variables)).body;
const GROUP = 'id name parent { id } groups { id } balances { currency balance held available incoming wallets }';

describe('wallet group mutations', () => {
  it('create, add, move, remove, delete — the same rules and codes as REST', async () => {
    const projectId = String(p.projectId);
    const root = (await gql(`mutation ($p: ID!) { createWalletGroup(projectId: $p, name: "Root", idempotencyKey: "root-1") { ${GROUP} } }`, { p: projectId })).data.createWalletGroup;
    const replay = (await gql(`mutation ($p: ID!) { createWalletGroup(projectId: $p, name: "Root", idempotencyKey: "root-1") { id } }`, { p: projectId })).data.createWalletGroup;
    expect(replay.id).toBe(root.id);
    const child = (await gql(`mutation ($p: ID!, $parent: ID) { createWalletGroup(projectId: $p, name: "Child", parentId: $parent) { ${GROUP} } }`, { p: projectId, parent: root.id })).data.createWalletGroup;
    expect(child.parent).toEqual({ id: root.id });

    const added = await gql(`mutation ($g: ID!, $w: String!, $p: ID!) { addWalletToGroup(id: $g, walletId: $w, projectId: $p) { ${GROUP} } }`, { g: child.id, w: p.customers[0].address, p: projectId });
    expect(added.data.addWalletToGroup.balances).toEqual([{ currency: p.symbol, balance: '5', held: '0', available: '5', incoming: '0', wallets: 1 }]);
    const wallet = await gql(`query ($id: ID!) { wallet(id: $id) { group { id name parent { name } } } }`, { id: p.customers[0].id });
    expect(wallet.data.wallet.group).toEqual({ id: child.id, name: 'Child', parent: { name: 'Root' } });

    const cycle = await gql(`mutation ($g: ID!, $p: ID!, $parent: ID) { updateWalletGroup(id: $g, projectId: $p, parentId: $parent) { id } }`, { g: root.id, p: projectId, parent: child.id });
    expect(cycle.errors![0].extensions.code).toBe('validation_error');
    const toRoot = await gql(`mutation ($g: ID!, $p: ID!) { updateWalletGroup(id: $g, projectId: $p, parentId: null, name: "Alone") { ${GROUP} } }`, { g: child.id, p: projectId });
    expect(toRoot.data.updateWalletGroup).toMatchObject({ name: 'Alone', parent: null });
    const rootNow = await gql(`query ($id: ID!) { walletGroup(id: $id) { ${GROUP} } }`, { id: root.id });
    expect(rootNow.data.walletGroup).toMatchObject({ groups: [], balances: [] });

    const busy = await gql(`mutation ($g: ID!) { deleteWalletGroup(id: $g) { id deleted } }`, { g: child.id });
    expect(busy.errors![0].extensions.code).toBe('conflict');
    const notIn = await gql(`mutation ($g: ID!, $w: String!, $p: ID!) { removeWalletFromGroup(id: $g, walletId: $w, projectId: $p) { id } }`, { g: root.id, w: p.customers[0].id, p: projectId });
    expect(notIn.errors![0].extensions.code).toBe('not_found');
    await gql(`mutation ($g: ID!, $w: String!, $p: ID!) { removeWalletFromGroup(id: $g, walletId: $w, projectId: $p) { id } }`, { g: child.id, w: p.customers[0].id, p: projectId });
    expect((await gql(`mutation ($g: ID!) { deleteWalletGroup(id: $g) { id deleted } }`, { g: child.id })).data.deleteWalletGroup).toEqual({ id: child.id, deleted: true });

    const roots = await gql(`query ($p: ID!) { project(id: $p) { walletGroups { totalCount edges { node { name } } } } }`, { p: projectId });
    expect(roots.data.project.walletGroups).toEqual({ totalCount: 1, edges: [{ node: { name: 'Root' } }] });
    const entities = await gql(`query ($r: [_Any!]!) { _entities(representations: $r) { ... on WalletGroup { id name } } }`, { r: [{ __typename: 'WalletGroup', id: root.id }] });
    expect(entities.data._entities).toEqual([{ id: root.id, name: 'Root' }]);
  });
});
