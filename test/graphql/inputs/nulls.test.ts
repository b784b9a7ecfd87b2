import { expectStatus } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * An explicit `null` for an input field the SDL declares nullable means "not given": the domain
 * default applies, the same for every mutation (createProject, createWallet, updateAsset).
 */
let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
  key = await t.issueKey('nulls', 'enterprise');
});
afterAll(() => t.close());

const PROJECT_FIELDS = 'id name type exchangeRate supportExchangeRate metadata asset { id }';

async function ok(query: string, variables?: Record<string, unknown>): Promise<any> {
  const res = await t.graphql(key, query, variables);
  expect(res.body.errors).toBeUndefined();
  expect(res.status).toBe(200);
  return res.body.data;
}

const defaults = { type: 'loyalty', exchangeRate: 1, supportExchangeRate: false, metadata: {}, asset: null };

describe('null for an optional input field', () => {
  it('createProject: nulls written in the document take the defaults', async () => {
    const data = await ok(`mutation {
      createProject(input: { name: "Inline nulls", type: null, exchangeRate: null, supportExchangeRate: null, metadata: null, assetId: null }) { ${PROJECT_FIELDS} }
    }`);
    expect(data.createProject).toEqual({ id: expect.any(String), name: 'Inline nulls', ...defaults });
  });

  it('createProject: nulls passed as variables take the defaults', async () => {
    const data = await ok(`mutation($input: CreateProjectInput!) { createProject(input: $input) { ${PROJECT_FIELDS} } }`, {
      input: { name: 'Variable nulls', type: null, exchangeRate: null, supportExchangeRate: null, metadata: null, assetId: null },
    });
    expect(data.createProject).toEqual({ id: expect.any(String), name: 'Variable nulls', ...defaults });
    const rest = await expectStatus(t.request('GET', `/projects/${data.createProject.id}`, { key }), 200);
    expect(rest).toMatchObject({ type: 'loyalty', exchangeRate: 1, supportExchangeRate: false, metadata: {} });
  });

  it('createProject: a null inside metadata is data, kept as is', async () => {
    const data = await ok(`mutation($input: CreateProjectInput!) { createProject(input: $input) { metadata } }`, {
      input: { name: 'Nested null', metadata: { note: null } },
    });
    expect(data.createProject.metadata).toEqual({ note: null });
  });

  it('createProject: a non-null value is still checked by the rules', async () => {
    const res = await t.graphql(key, `mutation { createProject(input: { name: "Bad rate", exchangeRate: 0 }) { id } }`);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].extensions.code).toBe('validation_error');
  });

  it('createWallet: a null address is generated', async () => {
    const { createProject } = await ok(`mutation { createProject(input: { name: "Wallets" }) { id } }`);
    const data = await ok(`mutation($input: CreateWalletInput!) { createWallet(type: CUSTOMER, input: $input) { id address } }`, {
      input: { projectId: createProject.id, address: null },
    });
    expect(data.createWallet.address).toEqual(expect.any(String));
    expect(data.createWallet.address.length).toBeGreaterThan(0);
  });

  it('updateAsset: a null field is left unchanged', async () => {
    const { createProject } = await ok(`mutation { createProject(input: { name: "Assets" }) { id } }`);
    const { createAsset } = await ok(
      `mutation($input: CreateAssetInput!) { createAsset(input: $input) { id } }`,
      { input: { projectId: createProject.id, name: 'Points', symbol: 'PTS', fractions: 2 } },
    );
    const data = await ok(`mutation($id: ID!, $input: UpdateAssetInput!) { updateAsset(id: $id, input: $input) { name symbol } }`, {
      id: createAsset.id,
      input: { projectId: createProject.id, name: null, symbol: 'NEW' },
    });
    expect(data.updateAsset).toEqual({ name: 'Points', symbol: 'NEW' });
  });
});
