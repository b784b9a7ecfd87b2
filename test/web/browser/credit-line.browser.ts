import type { Browser } from 'playwright-core';
import { expectStatus, fundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { launch, watchCsp, watchOrigins } from './support.js';

/**
 * The wallet page's credit line (CONTRACT §28, issue 41) in headless Chromium against the real
 * service: the balances table shows the line, the panel sets it, and a wallet spent below zero
 * shows its negative balance and `available` with the line counted.
 */
let t: TestApp;
let browser: Browser;
beforeAll(async () => {
  t = await startTestApp();
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('/console wallet page: credit line', () => {
  it('sets a line, and shows balance, available and the line as they are', async () => {
    const key = await t.issueKey('console-credit', 'pro');
    const p = await fundedProject(t, key, { customers: 1, fund: 5 });
    const [alice] = p.customers;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const csp = await watchCsp(page);
    const origins = await watchOrigins(page, t.baseUrl);
    await page.goto(`${t.baseUrl}/console`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Use key' }).click();
    await page.locator('#project option').first().waitFor({ state: 'attached' });
    await page.evaluate((id) => (location.hash = `#/wallets/${id}`), alice.id);
    const cell = (field: string) => page.locator(`#wallet table.balances td[data-field="${field}"]`);
    await cell('creditLimit').filter({ hasText: '0' }).waitFor();

    await page.getByRole('button', { name: 'Set credit line…' }).click();
    const form = page.getByRole('dialog', { name: 'Set a credit line' });
    await form.getByLabel('Limit (major units, 0 removes it)').fill('20');
    await form.getByRole('button', { name: 'Set credit line' }).click();
    await cell('creditLimit').filter({ hasText: '20' }).waitFor();
    await cell('available').filter({ hasText: '25' }).waitFor();

    await expectStatus(t.request('POST', '/transactions', { key, body: { projectId: p.projectId, currency: p.symbol, from: alice.id, to: p.system.id, amount: 12 } }), 201);
    await page.reload();
    await cell('balance').filter({ hasText: '-7' }).waitFor();
    expect(await cell('available').textContent()).toBe('13');
    expect(csp.violations).toEqual([]);
    expect(origins.foreign).toEqual([]);
    await page.close();
  });
});
