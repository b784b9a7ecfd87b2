import { fundedProject, type FundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Credit lines (CONTRACT §28 and its clarification): PUT /wallets/{id}/credit-line, spending
 * against balance − held + limit, negative balances shown as they are, lowering below use.
 */
let t: TestApp;
let e: FundedProject;
beforeAll(async () => {
  t = await startTestApp();
  e = await fundedProject(t, { owner: 'credit-lines' }, { fund: 10, customers: 3 });
});
afterAll(() => t.close());

const setLine = (walletId: string, limit: unknown, extra: Record<string, unknown> = {}) =>
  t.request('PUT', `/wallets/${walletId}/credit-line`, { key: e.key, body: { projectId: e.projectId, currency: e.symbol, limit, ...extra } });
const send = (from: string, to: string, amount: number) => t.request('POST', '/transactions', { key: e.key, body: { projectId: e.projectId, currency: e.symbol, from, to, amount } });
const balanceOf = async (walletId: string) => (await t.request('GET', `/wallets/${walletId}`, { key: e.key })).body.balance[0];

describe('PUT /wallets/{id}/credit-line', () => {
  it('answers {walletId, currency, limit}; the balance entry shows creditLimit and available = balance − held + limit', async () => {
    const [a] = e.customers;
    const res = await setLine(a.id, 25.5);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ walletId: a.id, currency: e.symbol, limit: 25.5 });
    expect(await balanceOf(a.id)).toMatchObject({ balance: 10, held: 0, available: 35.5, creditLimit: 25.5 });
  });

  it('lets the wallet spend down to −limit and no further (409 insufficient_funds), then shows the negative balance everywhere', async () => {
    const [a, b] = e.customers;
    expect((await send(a.id, b.id, 35.5)).status).toBe(201);
    expect(await balanceOf(a.id)).toMatchObject({ balance: -25.5, available: 0, creditLimit: 25.5 });
    const refused = await send(a.id, b.id, 0.01);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('insufficient_funds');
    const history = await t.request('GET', `/transactions?walletId=${a.id}&projectId=${e.projectId}`, { key: e.key });
    expect(history.body.balance).toMatchObject({ balance: -25.5, available: 0, creditLimit: 25.5 });
    expect(history.body.transactions[0]).toMatchObject({ amount: 35.5, balance: -25.5 });
    const asOf = await t.request('GET', `/wallets/${a.id}?asOf=${encodeURIComponent(new Date().toISOString())}`, { key: e.key });
    expect(asOf.body.balance[0]).toEqual({ account: a.address, currency: e.symbol, balance: -25.5 });
  });

  it('a hold spends the line too', async () => {
    const [, , c] = e.customers;
    expect((await setLine(c.id, 5)).status).toBe(200);
    const held = await t.request('POST', '/holds', { key: e.key, body: { projectId: e.projectId, currency: e.symbol, from: c.id, to: e.system.id, amount: 14 } });
    expect(held.status).toBe(201);
    expect(await balanceOf(c.id)).toMatchObject({ balance: 10, held: 14, available: 1, creditLimit: 5 });
    const over = await t.request('POST', '/holds', { key: e.key, body: { projectId: e.projectId, currency: e.symbol, from: c.id, to: e.system.id, amount: 1.01 } });
    expect(over.body.code).toBe('insufficient_funds');
    const captured = await t.request('POST', `/holds/${held.body.hold.id}/capture`, { key: e.key, body: { projectId: e.projectId } });
    expect(captured.status).toBe(201);
    expect(captured.body.transaction.balance).toBe(-4);
  });

  it('lowered below what is used: nothing is reversed, the wallet only receives until available > 0', async () => {
    const [a, b] = e.customers;
    expect((await setLine(a.id, 0)).body).toEqual({ walletId: a.id, currency: e.symbol, limit: 0 });
    expect(await balanceOf(a.id)).toMatchObject({ balance: -25.5, available: -25.5, creditLimit: 0 });
    expect((await send(a.id, b.id, 1)).body.code).toBe('insufficient_funds');
    expect((await send(b.id, a.id, 20)).status).toBe(201);
    expect(await balanceOf(a.id)).toMatchObject({ balance: -5.5, available: -5.5 });
    expect((await send(a.id, b.id, 0.01)).body.code).toBe('insufficient_funds');
    expect((await send(b.id, a.id, 6.5)).status).toBe(201);
    expect((await send(a.id, b.id, 1)).status).toBe(201);
    expect((await send(a.id, b.id, 0.01)).body.code).toBe('insufficient_funds');
  });

  it('a wallet below zero cannot be closed (every balance must be zero)', async () => {
    const f = await fundedProject(t, { owner: 'credit-close' }, { fund: 0, customers: 2 });
    const [a, b] = f.customers;
    await t.request('PUT', `/wallets/${a.id}/credit-line`, { key: f.key, body: { projectId: f.projectId, currency: f.symbol, limit: 3 } });
    expect((await t.request('POST', '/transactions', { key: f.key, body: { projectId: f.projectId, currency: f.symbol, from: a.id, to: b.id, amount: 3 } })).status).toBe(201);
    const close = await t.request('PUT', `/wallets/status/${a.id}`, { key: f.key, body: { projectId: f.projectId, status: 'closed' } });
    expect(close.status).toBe(409);
    expect(close.body.code).toBe('wallet_not_empty');
  });

  it('works on a system wallet too; the closed wallet is 409 conflict', async () => {
    const f = await fundedProject(t, { owner: 'credit-closed' }, { fund: 0, customers: 1 });
    expect((await t.request('PUT', `/wallets/${f.system.id}/credit-line`, { key: f.key, body: { projectId: f.projectId, currency: f.symbol, limit: 1 } })).status).toBe(200);
    const [a] = f.customers;
    expect((await t.request('PUT', `/wallets/status/${a.id}`, { key: f.key, body: { projectId: f.projectId, status: 'closed' } })).status).toBe(200);
    const res = await t.request('PUT', `/wallets/${a.id}/credit-line`, { key: f.key, body: { projectId: f.projectId, currency: f.symbol, limit: 1 } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
  });

  it('refuses bad input: 400 for fields and expiring assets, 404 for the project, wallet or currency', async () => {
    const [a] = e.customers;
    expect((await setLine(a.id, -1)).status).toBe(400);
    expect((await setLine(a.id, 0.001)).status).toBe(400);
    expect((await setLine(a.id, 1, { extra: true })).status).toBe(400);
    expect((await t.request('PUT', `/wallets/not-a-uuid/credit-line`, { key: e.key, body: { projectId: e.projectId, currency: e.symbol, limit: 1 } })).status).toBe(400);
    expect((await setLine(a.id, 1, { currency: 'NOPE' })).body).toMatchObject({ code: 'not_found' });
    expect((await setLine(a.id, 1, { projectId: e.projectId + 1000 })).status).toBe(404);
    expect((await setLine('00000000-0000-4000-8000-000000000000', 1)).status).toBe(404);
    const expiring = await t.request('POST', '/assets', { key: e.key, body: { projectId: e.projectId, name: 'Miles', symbol: 'MILES', fractions: 0, expiresAfterSeconds: 3600 } });
    expect(expiring.status).toBe(201);
    const refused = await setLine(a.id, 1, { currency: 'MILES' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('validation_error');
  });

  it('an asset with credit lines cannot be given an expiry (409 conflict)', async () => {
    const res = await t.request('PUT', `/assets/${e.assetId}`, { key: e.key, body: { projectId: e.projectId, expiresAfterSeconds: 3600 } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
  });
});
