import { createLedgerClient, type LedgerClient, type Schemas } from '../../../clients/typescript/src/index.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

let t: TestApp;
let ledger: LedgerClient;
beforeAll(async () => {
  t = await startTestApp();
  ledger = createLedgerClient(t.baseUrl, await t.issueKey('typed-client'));
});
afterAll(() => t.close());

/** A call's 2xx body; anything else fails the test with the error body the client typed. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new Error(`${result.response.status}: ${JSON.stringify(result.error)}`);
  return result.data;
}

// This file is compiled by tsc with the rest of the suite: a path, a field or a type the API does
// not have fails the build before the test runs.
describe('the typed client (@ledger/client) against the real service', () => {
  it("runs the README's first transfer: project, asset, two wallets, seed, transfer, read back", async () => {
    const project = ok(await ledger.POST('/projects', { body: { name: 'Arcade' } }));
    const asset = ok(await ledger.POST('/assets', { body: { name: 'Coins', symbol: 'COIN', fractions: 2, projectId: project.id } }));
    expect(asset).toMatchObject({ symbol: 'COIN', fractions: 2, projectId: project.id });

    const system = ok(await ledger.POST('/wallets/create/{type}', { params: { path: { type: 'system' } }, body: { projectId: project.id } }));
    const alice = ok(await ledger.POST('/wallets/create/{type}', { params: { path: { type: 'customer' } }, body: { projectId: project.id } }));

    const seeded: Schemas['SeedResult'] = ok(await ledger.POST('/transactions/seed', { body: { amount: 100, currency: 'COIN', projectId: project.id, to: system.id } }));
    expect(seeded.transaction[0]).toMatchObject({ from: '@mint', to: system.address, amount: 100 });
    const transfer = { amount: 12.5, currency: 'COIN', projectId: project.id, from: system.id, to: alice.id } satisfies Schemas['TransferRequest'];
    const posted = ok(await ledger.POST('/transactions', { body: transfer, params: { header: { 'Idempotency-Key': 'first-transfer' } } }));
    expect(posted.transaction).toMatchObject({ amount: 12.5, currency: 'COIN', balance: 87.5, from: system.address, to: alice.address });

    const wallet = ok(await ledger.GET('/wallets/{id}', { params: { path: { id: alice.id } } }));
    // the answer is the wallet with activity, or the as-of shape: both carry balances and transactions
    expect(wallet.balance).toEqual([expect.objectContaining({ currency: 'COIN', balance: 12.5 })]);
    expect(wallet.transactions.map((tx) => tx.id)).toEqual([posted.transaction.id]);

    const history = ok(await ledger.GET('/transactions', { params: { query: { walletId: alice.id, currency: 'COIN' } } }));
    expect(history.pagination.total).toBe(1);
  });

  it('answers a refusal as the typed error body {code, message, details}', async () => {
    const { data, error, response } = await ledger.GET('/wallets/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } });
    expect(response.status).toBe(404);
    expect(data).toBeUndefined();
    const refusal: Schemas['Error'] | undefined = error;
    expect(refusal).toMatchObject({ code: 'not_found', message: expect.any(String), details: expect.any(Object) });
  });
});
