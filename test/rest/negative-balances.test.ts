import { journaled } from '../domain/journal/journal-support.js';
import { expectStatus, fundedProject, type FundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Negative balances are shown as they are everywhere (CONTRACT §28): search, export, the journal
 * and analytics read the signed running balances the postings wrote; a customer wallet below zero
 * lowers `outstanding` as any balance does.
 */
let t: TestApp;
let e: FundedProject;
let spent: string;
beforeAll(async () => {
  t = await startTestApp();
  e = await fundedProject(t, await t.issueKey('negative-balances', 'enterprise'), { customers: 1, fund: 2 });
  const [a] = e.customers;
  await expectStatus(t.request('PUT', `/wallets/${a.id}/credit-line`, { key: e.key, body: { projectId: e.projectId, currency: e.symbol, limit: 10 } }), 200);
  spent = (await expectStatus(t.request('POST', '/transactions', { key: e.key, body: { projectId: e.projectId, currency: e.symbol, from: a.id, to: e.system.id, amount: 7.5, reference: 'overdrawn' } }), 201)).transaction.id;
});
afterAll(() => t.close());

describe('a wallet below zero', () => {
  it('search and export show the negative running balance of the sender', async () => {
    const found = await expectStatus(t.request('GET', `/transactions/search?projectId=${e.projectId}&reference=overdrawn`, { key: e.key }), 200);
    expect(JSON.stringify(found)).toContain(spent);
    const res = await fetch(`${t.baseUrl}/transactions/export?projectId=${e.projectId}`, { headers: { api_key: e.key } });
    expect(res.status).toBe(200);
    const text = await res.text();
    const line = text.split('\n').find((l) => l.includes(spent));
    expect(line).toBeDefined();
    expect(line).toMatch(/-5\.5/);
  });

  it('the journal chains it and verifies', async () => {
    await journaled(t);
    const verified = await expectStatus(t.request('GET', `/projects/${e.projectId}/journal/verify`, { key: e.key }), 200);
    expect(verified).toMatchObject({ ok: true, entries: 3 }); // the seed, the funding, the overdraft
  });

  it('analytics: outstanding is the customers’ total, the negative one included', async () => {
    await t.app.services.eventSequencer.flush();
    const res = await expectStatus(t.request('GET', `/projects/${e.projectId}/analytics`, { key: e.key }), 200);
    expect(res.totals).toMatchObject({ issued: 2, redeemed: 7.5, outstanding: -5.5 });
  });
});
