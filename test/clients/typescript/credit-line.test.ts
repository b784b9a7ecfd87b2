import { createLedgerClient, type LedgerClient, type Schemas } from '../../../clients/typescript/src/index.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

let t: TestApp;
let ledger: LedgerClient;
beforeAll(async () => {
  t = await startTestApp();
  ledger = createLedgerClient(t.baseUrl, await t.issueKey('typed-client-credit'));
});
afterAll(() => t.close());

function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new Error(`${result.response.status}: ${JSON.stringify(result.error)}`);
  return result.data;
}

// Compiled with the suite: the credit-line route, `creditLimit` and `conditions` must be in the generated types.
describe('the typed client: credit lines and conditions (CONTRACT §28)', () => {
  it('sets a line, spends below zero, reads creditLimit, and is refused by a condition with condition_failed', async () => {
    const project = ok(await ledger.POST('/projects', { body: { name: 'Postpaid' } }));
    ok(await ledger.POST('/assets', { body: { name: 'Euro', symbol: 'EUR', fractions: 2, projectId: project.id } }));
    const shop = ok(await ledger.POST('/wallets/create/{type}', { params: { path: { type: 'system' } }, body: { projectId: project.id } }));
    const buyer = ok(await ledger.POST('/wallets/create/{type}', { params: { path: { type: 'customer' } }, body: { projectId: project.id } }));
    const line: Schemas['CreditLine'] = ok(await ledger.PUT('/wallets/{id}/credit-line', { params: { path: { id: buyer.id } }, body: { projectId: project.id, currency: 'EUR', limit: 50 } }));
    expect(line).toEqual({ walletId: buyer.id, currency: 'EUR', limit: 50 });

    const conditions: Schemas['Condition'][] = [{ wallet: buyer.id, currency: 'EUR', field: 'balance', op: 'gte', value: -30 }];
    const posted = ok(await ledger.POST('/transactions', { body: { amount: 30, currency: 'EUR', projectId: project.id, from: buyer.id, to: shop.id, conditions } }));
    expect(posted.transaction.balance).toBe(-30);
    const { error, response } = await ledger.POST('/transactions', { body: { amount: 0.01, currency: 'EUR', projectId: project.id, from: buyer.id, to: shop.id, conditions } });
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ code: 'condition_failed', details: { index: 0, actual: -30.01 } });

    const wallet = ok(await ledger.GET('/wallets/{id}', { params: { path: { id: buyer.id } } }));
    expect(wallet.balance).toEqual([expect.objectContaining({ balance: -30, available: 20, creditLimit: 50 })]);
  });
});
