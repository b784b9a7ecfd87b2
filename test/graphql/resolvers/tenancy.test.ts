import { fundedProject, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { AssetDocument, AssetsDocument, HistoryDocument, ProjectDocument, WalletDocument, WalletsDocument, WebhookEventsDocument } from '../generated/graphql.js';
import { raw, run, type GraphQLResult } from '../support/client.js';

let t: TestApp;
let alice: FundedProject;
let bob: FundedProject;
let aliceSeed: string;
let bobSeed: string;

beforeAll(async () => {
  t = await startTestApp();
  alice = await fundedProject(t, await t.issueKey('alice'), { customers: 2 });
  bob = await fundedProject(t, await t.issueKey('bob'), { customers: 1 });
  const seedOf = async (p: FundedProject) => (await t.request('GET', `/transactions?walletId=${p.system.id}`, { key: p.key })).body.transactions[0].id as string;
  aliceSeed = await seedOf(alice);
  bobSeed = await seedOf(bob);
});
afterAll(() => t.close());

const ENTITIES = `query($r: [_Any!]!) { _entities(representations: $r) {
  ... on Project { id name } ... on Asset { id symbol } ... on Wallet { id address balances { balance } } ... on Transaction { id amount } } }`;

describe("another owner's ids in _entities resolve to null", () => {
  it('for every entity type, next to the caller own entities, in one statement per type', async () => {
    const res = await raw(t, bob.key, ENTITIES, {
      r: [
        { __typename: 'Project', id: String(alice.projectId) },
        { __typename: 'Project', id: String(bob.projectId) },
        { __typename: 'Asset', id: alice.assetId },
        { __typename: 'Asset', id: bob.assetId },
        { __typename: 'Wallet', id: alice.customers[0].id },
        { __typename: 'Wallet', id: bob.customers[0].id },
        { __typename: 'Wallet', id: alice.system.id },
        { __typename: 'Wallet', id: 'not-a-uuid' },
        { __typename: 'Project', id: 'x' },
        { __typename: 'Transaction', id: aliceSeed },
        { __typename: 'Transaction', id: bobSeed },
      ],
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data._entities).toEqual([
      null,
      { id: String(bob.projectId), name: 'Funded project' },
      null,
      { id: bob.assetId, symbol: 'PTS' },
      null,
      { id: bob.customers[0].id, address: bob.customers[0].address, balances: [{ balance: '0' }] },
      null,
      null,
      null,
      null,
      { id: bobSeed, amount: '1000' },
    ]);
    expect(res.statements).toBeLessThanOrEqual(5); // projects, assets, wallets, transactions, balances
  });
});

describe("another owner's ids in queries answer not_found, exactly like missing ones", () => {
  const notFound = (res: GraphQLResult<unknown>) => {
    expect(res.body.errors?.map((e) => e.extensions.code)).toEqual(['not_found']);
  };

  it('project, asset, wallet', async () => {
    notFound(await run(t, bob.key, ProjectDocument, { id: String(alice.projectId) }));
    notFound(await run(t, bob.key, AssetDocument, { id: alice.assetId }));
    notFound(await run(t, bob.key, WalletDocument, { id: alice.system.id }));
  });

  it('lists filtered by their projectId', async () => {
    notFound(await run(t, bob.key, WalletsDocument, { projectId: String(alice.projectId), first: 5 }));
    notFound(await run(t, bob.key, AssetsDocument, { projectId: String(alice.projectId), first: 5 }));
    notFound(await run(t, bob.key, WebhookEventsDocument, { projectId: String(alice.projectId), first: 5 }));
  });

  it('a wallet history by id or by address', async () => {
    notFound(await run(t, bob.key, HistoryDocument, { walletId: alice.system.id, first: 5 }));
    notFound(await run(t, bob.key, HistoryDocument, { walletId: alice.customers[0].address, projectId: String(alice.projectId), first: 5 }));
  });

  it('a malformed id is a validation_error, as in REST', async () => {
    const res = await run(t, bob.key, ProjectDocument, { id: 'abc' });
    expect(res.body.errors?.[0].extensions).toMatchObject({ code: 'validation_error', details: { field: 'id' } });
    const wallet = await run(t, bob.key, WalletDocument, { id: 'abc' });
    expect(wallet.body.errors?.[0].extensions).toMatchObject({ code: 'validation_error', details: { field: 'id' } });
  });
});
