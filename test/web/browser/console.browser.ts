import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DEFAULTS } from '../../../src/config.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { launch, watchCsp, watchOrigins } from './support.js';

/**
 * The operator console (issues 24 and 26) end to end in headless Chromium against the real
 * service: a fresh key sets up a program from nothing (project, asset with expiry, wallets), moves
 * money, searches and opens a transaction, reverses it, holds and captures, watches the events
 * feed live, adds a webhook endpoint and sees its deliveries, changes a wallet's status, and reads
 * the dashboard, limits and monitors. Every page stays on the service's origin and under its
 * Content-Security-Policy. Screenshots of each view (1280 and 390 px, light and dark) go to
 * test/web/browser/screenshots/.
 */
const SHOTS = path.join(process.cwd(), 'test/web/browser/screenshots');
let t: TestApp;
let browser: Browser;
let receiver: Server;
let received = 0;
let onReceived = () => {};
const measures: Record<string, number> = {};

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // webhook deliveries go to a receiver on this machine (a private address, allowed for the test)
  t = await startTestApp({ webhooks: { ...DEFAULTS.webhooks, allowPrivate: true, pollMs: 100 } });
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(204).end();
      received++;
      onReceived();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await t?.close();
  console.log(`console measures: ${JSON.stringify(measures)}`);
});

/** A page that records requests to other origins, CSP violations and the bytes it received. */
async function openPage(width = 1280) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const csp = await watchCsp(page);
  const origins = await watchOrigins(page, t.baseUrl);
  const traffic = { bytes: 0 };
  page.on('requestfinished', (request) => void request.sizes().then((s) => (traffic.bytes += s.responseBodySize + s.responseHeadersSize)).catch(() => undefined));
  return { page, csp, origins, traffic };
}

async function signIn(page: Page, key: string) {
  await page.goto(`${t.baseUrl}/console`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Use key' }).click();
}

const nav = (page: Page, view: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: view, exact: true }).click();
const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });
/** The open view once nothing in it is loading. */
async function settled(page: Page, view: string, content?: string) {
  await page.locator(`main .view[data-view="${view}"]`).waitFor();
  if (content) await page.locator(content).waitFor();
  await page.locator('main [data-state="loading"]').first().waitFor({ state: 'detached' });
}

describe('/console', () => {
  it('sets a program up from nothing and runs it: wallets, money, search, detail, holds, events, webhooks, status', async () => {
    const key = await t.issueKey('console-owner', 'pro');
    const { page, csp, origins, traffic } = await openPage();

    // first load: the page and its modules to the sign-in form, then the empty dashboard of a key without projects
    await page.goto(`${t.baseUrl}/console`);
    await page.getByLabel('API key').waitFor();
    measures.firstContentfulPaintMs = Math.round(await page.evaluate(() => (globalThis as any).performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1));
    measures.firstLoadBytes = traffic.bytes;
    const started = Date.now();
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Use key' }).click();
    await page.locator('.notice-title', { hasText: 'No project yet' }).waitFor();
    measures.signInToDashboardMs = Date.now() - started;
    measures.signedInBytes = traffic.bytes;

    // a project, an asset that expires, a system wallet and two customers
    await nav(page, 'Program');
    await page.getByRole('button', { name: 'New project…' }).click();
    const project = dialog(page, 'New project');
    await project.getByLabel('Name').fill('Coffee club');
    await project.getByLabel('Points can be bought with fiat (exchange rate)').check();
    await project.getByLabel('Points per fiat unit').fill('10');
    await project.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Program: Coffee club' }).waitFor();
    expect(await page.getByLabel('Project', { exact: true }).locator('option:checked').textContent()).toMatch(/^Coffee club \(#\d+\)$/);
    await page.getByRole('button', { name: 'New asset…' }).click();
    const asset = dialog(page, 'New asset');
    await asset.getByLabel('Name').fill('Beans');
    await asset.getByLabel('Symbol (A–Z, 0–9, _ -)').fill('BEAN');
    await asset.getByLabel('Points expire after').fill('30');
    await asset.getByRole('button', { name: 'Create asset' }).click();
    await page.locator('table.data tr', { hasText: 'BEAN' }).filter({ hasText: '30 days' }).waitFor();
    for (const [type, address] of [['system', 'treasury'], ['customer', 'alice'], ['customer', 'bob']]) {
      await page.getByRole('button', { name: `New ${type} wallet…` }).click();
      const form = dialog(page, `New ${type} wallet`);
      await form.getByLabel('Address (optional)').fill(address);
      await form.getByRole('button', { name: 'Create wallet' }).click();
      await page.getByRole('status').filter({ hasText: `wallet ${address} created` }).waitFor();
    }
    const { body: projects } = await t.request('GET', '/projects', { key });
    const projectId: number = projects.projects[0].id;
    expect(projects.projects[0]).toMatchObject({ name: 'Coffee club', supportExchangeRate: true, exchangeRate: 10 });
    const { body: assets } = await t.request('GET', `/assets?projectId=${projectId}`, { key });
    const analyticsOffered = await offers(`/projects/${projectId}/analytics`, key);
    const limitsOffered = await offers(`/limits?projectId=${projectId}`, key);
    const monitorsOffered = await offers(`/balance-monitors?projectId=${projectId}`, key);
    expect(assets.assets[0]).toMatchObject({ symbol: 'BEAN', fractions: 2, expiresAfterSeconds: 30 * 86400 });

    // seed the treasury, transfer to alice, in dialogs of the wallets view
    await nav(page, 'Wallets');
    await page.locator('#live').filter({ hasText: 'Live' }).waitFor();
    await page.getByRole('button', { name: 'Seed…' }).click();
    const seedForm = dialog(page, 'Seed (mint into a system wallet)');
    await seedForm.getByLabel('To (wallet id or address)').fill('treasury');
    await seedForm.getByLabel('Amount (major units)').fill('1000');
    await seedForm.getByRole('button', { name: 'Seed (mint into a system wallet)' }).click();
    const wallets = await t.request('GET', `/wallets/customer?projectId=${projectId}`, { key });
    const alice = wallets.body.wallets.find((w: { address: string }) => w.address === 'alice');
    await page.getByRole('button', { name: 'Transfer…' }).click();
    const transferForm = dialog(page, 'Transfer');
    await transferForm.getByLabel('From (wallet id or address)').fill('treasury');
    await transferForm.getByLabel('To (wallet id or address)').fill('alice');
    await transferForm.getByLabel('Amount (major units)').fill('120');
    await transferForm.getByRole('button', { name: 'Transfer', exact: true }).click();
    await page.locator(`tr[data-wallet="${alice.id}"] td[data-field="BEAN.balance"]`).filter({ hasText: /^120$/ }).waitFor();
    // a refusal stays in the dialog, as the contract's code and message
    await page.getByRole('button', { name: 'Transfer…' }).click();
    await transferForm.getByLabel('From (wallet id or address)').fill('bob');
    await transferForm.getByLabel('To (wallet id or address)').fill('alice');
    await transferForm.getByLabel('Amount (major units)').fill('5');
    await transferForm.getByRole('button', { name: 'Transfer', exact: true }).click();
    await page.locator('#transfer-result.error').filter({ hasText: 'insufficient_funds' }).waitFor();
    await transferForm.getByRole('button', { name: 'Cancel' }).click();

    // sorting a column: the treasury (880) first when descending
    await page.getByRole('button', { name: 'BEAN balance', exact: true }).click();
    await page.getByRole('button', { name: 'BEAN balance', exact: true }).click();
    await page.locator('th[aria-sort="descending"]').waitFor();
    expect(await page.locator('tr[data-wallet] td:first-child').allTextContents()).toEqual(['treasury', 'alice', 'bob']);

    // alice's wallet: suspend, refuse to close with funds, activate again
    await page.getByRole('link', { name: 'alice' }).click();
    await page.getByRole('heading', { name: 'Wallet alice' }).waitFor();
    await page.locator('#wallet-activity table.history tbody tr').first().waitFor();
    expect(await page.locator('#wallet-activity svg.chart polyline').count()).toBe(1);
    await page.getByLabel('Status', { exact: true }).selectOption('suspended');
    await page.getByRole('button', { name: 'Change status' }).click();
    await page.locator('#wallet dd[data-field="status"]').filter({ hasText: 'suspended' }).waitFor();
    expect((await t.request('GET', `/wallets/${alice.id}`, { key })).body.status).toBe('suspended');
    await page.getByLabel('Status', { exact: true }).selectOption('closed');
    await page.getByRole('button', { name: 'Change status' }).click();
    await page.locator('#wallet-status-result.error').filter({ hasText: 'wallet_not_empty' }).waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('active');
    await page.getByRole('button', { name: 'Change status' }).click();
    await page.locator('#wallet dd[data-field="status"]').filter({ hasText: 'active' }).waitFor();

    // alice's pending points (§26): a maturing credit appears live with `incoming`, and the operator voids it
    await page.locator('#pending .notice-title', { hasText: 'No pending points' }).waitFor();
    const pending = await t.request('POST', '/holds', { key, body: { projectId, amount: 7, currency: 'BEAN', from: 'treasury', to: 'alice', matureIn: 3600 } });
    expect(pending.status).toBe(201);
    const pendingRow = page.locator(`#pending tr[data-hold="${pending.body.hold.id}"]`);
    await pendingRow.waitFor();
    await page.locator('#wallet table.balances td[data-field="incoming"]').filter({ hasText: /^7$/ }).waitFor();
    await pendingRow.getByRole('button', { name: 'Void the pending 7 BEAN from treasury' }).click();
    await dialog(page, 'Void these pending points?').getByRole('button', { name: 'Void' }).click();
    await page.locator('#pending .notice-title', { hasText: 'No pending points' }).waitFor();
    expect((await t.request('GET', `/holds/${pending.body.hold.id}`, { key })).body.hold.status).toBe('voided');

    // alice's limits and monitors (§19, §20): add, see used and remaining, delete
    if (limitsOffered) {
      await page.locator('#limits .notice-title', { hasText: 'No limit applies' }).waitFor();
      await page.getByRole('button', { name: 'Add limit…' }).click();
      const limitForm = dialog(page, 'Add a limit');
      await limitForm.getByLabel('At most (major units)').fill('50');
      await limitForm.getByRole('button', { name: 'Add limit' }).click();
      const limitRow = page.locator('#limits tr[data-limit]');
      await limitRow.locator('td[data-field="remaining"]').filter({ hasText: /^50$/ }).waitFor();
      expect(await limitRow.locator('td').first().textContent()).toBe('this wallet');
      await limitRow.getByRole('button', { name: /^Delete the debit limit/ }).click();
      await dialog(page, 'Delete this limit?').getByRole('button', { name: 'Delete limit' }).click();
      await page.locator('#limits .notice-title', { hasText: 'No limit applies' }).waitFor();
    } else {
      await page.locator('#limits .notice-title', { hasText: 'Limits not available on this server' }).waitFor();
    }
    if (monitorsOffered) {
      await page.locator('#monitors .notice-title', { hasText: 'No monitor' }).waitFor();
      for (const [scope, value] of [['every customer wallet of the project', '1000'], [`this wallet (alice)`, '100']]) {
        await page.getByRole('button', { name: 'Add monitor…' }).click();
        const monitorForm = dialog(page, 'Add a balance monitor');
        await monitorForm.getByLabel('Watches').selectOption({ label: scope });
        await monitorForm.getByLabel('Fires when it becomes').selectOption('lt');
        await monitorForm.getByLabel('Threshold (major units)').fill(value);
        await monitorForm.getByRole('button', { name: 'Add monitor' }).click();
        await page.locator('#monitors tr[data-monitor]', { hasText: `BEAN balance < ${value}` }).waitFor();
      }
      await page.getByRole('button', { name: 'Delete the monitor balance lt 1000' }).click();
      await dialog(page, 'Delete this monitor?').getByRole('button', { name: 'Delete monitor' }).click();
      await page.locator('#monitors tr[data-monitor]', { hasText: 'BEAN balance < 1000' }).waitFor({ state: 'detached' });
      expect(await page.locator('#monitors tr[data-monitor]').count()).toBe(1);
    } else {
      await page.locator('#monitors .notice-title', { hasText: 'Monitors not available on this server' }).waitFor();
    }

    // search: every transaction, then the treasury's as sender; open one and reverse part of it
    await nav(page, 'Transactions');
    await page.locator('tr[data-transaction]').nth(1).waitFor();
    expect(await page.locator('tr[data-transaction]').count()).toBe(2); // the seed and the transfer
    await page.getByLabel('From (address, or @mint)').fill('@mint');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('1 transaction, newest first').waitFor();
    await page.getByLabel('From (address, or @mint)').fill('treasury');
    await page.getByLabel('Min amount').fill('100');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('1 transaction, newest first').waitFor();
    const transferId = await page.locator('tr[data-transaction]').getAttribute('data-transaction');
    await page.getByRole('link', { name: `Open transaction ${transferId}` }).click();
    await page.locator('#transaction dd[data-field="amount"]').filter({ hasText: '120 BEAN' }).waitFor();
    expect(await page.locator('#transaction dd[data-field="to"]').textContent()).toBe('alice (customer)');
    await page.getByRole('button', { name: 'Reverse…' }).click();
    const reverse = dialog(page, 'Reverse a transaction');
    await reverse.getByLabel('Amount (major units)').fill('20');
    await reverse.getByRole('button', { name: 'Reverse a transaction' }).click();
    await page.locator('#transaction dd[data-field="reversedAmount"]').filter({ hasText: '20 BEAN' }).waitFor();
    await page.locator('#transaction tr[data-transaction]').first().waitFor(); // the reversal, listed

    // holds: alice holds 30 for the treasury; the view captures 10 of it
    await nav(page, 'Holds');
    await page.locator('.notice-title', { hasText: 'No pending holds' }).waitFor();
    await page.getByRole('button', { name: 'Hold…' }).click();
    const holdForm = dialog(page, 'Hold');
    await holdForm.getByLabel('From (wallet id or address)').fill('alice');
    await holdForm.getByLabel('To (wallet id or address)').fill('treasury');
    await holdForm.getByLabel('Amount (major units)').fill('30');
    await holdForm.getByLabel('Currency (asset symbol)').fill('BEAN');
    await holdForm.getByRole('button', { name: 'Hold', exact: true }).click();
    const holdRow = page.locator('tr[data-hold]').first();
    await holdRow.waitFor();
    await holdRow.getByRole('button', { name: /^Capture hold/ }).click();
    const capture = dialog(page, 'Capture a hold');
    await capture.getByLabel('Amount (major units)').fill('10');
    await capture.getByRole('button', { name: 'Capture a hold' }).click();
    await page.locator('.notice-title', { hasText: 'No pending holds' }).waitFor(); // the view lists pending ones: none left
    await page.getByLabel('Status').selectOption('captured');
    await page.locator('tr[data-hold] td[data-field="status"]').filter({ hasText: 'captured' }).waitFor();

    // groups (CONTRACT §29): a root group, alice moved into it: its roll-up counts her
    await nav(page, 'Groups');
    await page.locator('.notice-title', { hasText: 'No groups yet' }).waitFor();
    await page.getByRole('button', { name: 'New group…' }).click();
    const groupForm = dialog(page, 'New root group');
    await groupForm.getByLabel('Name').fill('Family');
    await groupForm.getByRole('button', { name: 'New root group' }).click();
    await page.getByRole('button', { name: 'Open Family' }).waitFor();
    await page.getByRole('button', { name: 'Move a wallet…' }).click();
    const moveForm = dialog(page, 'Move a wallet');
    await moveForm.getByLabel('Wallet', { exact: true }).fill('alice');
    await moveForm.getByLabel('Into').selectOption({ label: 'Family' });
    await moveForm.getByRole('button', { name: 'Move a wallet' }).click();
    await page.locator('li[data-group] .roll-up').filter({ hasText: '1 wallet' }).waitFor();

    // events: what happened so far, then a transfer made elsewhere arrives live
    await nav(page, 'Events');
    await page.locator('ol.feed li[data-event="hold.captured"]').waitFor();
    // alice went from 100 (after the reversal) to 90 by the capture: below her monitor's 100
    if (monitorsOffered) await page.locator('ol.feed li[data-event="balance.threshold_crossed"]').filter({ hasText: 'alice balance 100 → 90 crossed lt 100 BEAN' }).waitFor();
    await page.locator('#events-live').filter({ hasText: 'Live' }).waitFor();
    await t.app.services.eventFeeds.whenSize((size) => size === 1); // the view's ledgerEvents, registered (the wallet views' are gone)
    const posted = await t.request('POST', '/transactions', { key, body: { amount: 7, currency: 'BEAN', from: 'treasury', to: 'bob', projectId } });
    expect(posted.status).toBe(201);
    await page.locator('ol.feed li[data-event="transaction.posted"]').filter({ hasText: '7 BEAN treasury → bob' }).waitFor({ timeout: 5_000 });
    // the type filter offers the types shown (once a list given whole to replaceChildren: none offered) and keeps the chosen one
    await page.getByLabel('Type', { exact: true }).selectOption('hold.captured');
    await page.locator('ol.feed li[data-event="transaction.posted"]').first().waitFor({ state: 'detached' });
    expect(await page.locator('ol.feed li').evaluateAll((items) => [...new Set(items.map((li) => li.getAttribute('data-event')))])).toEqual(['hold.captured']);

    // webhooks: an endpoint (its secret shown once), a delivery to it, listed as succeeded
    await nav(page, 'Webhooks');
    await page.getByText('No webhook endpoints').waitFor();
    await page.getByRole('button', { name: 'Add endpoint…' }).click();
    const endpointForm = dialog(page, 'Add a webhook endpoint');
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await endpointForm.getByLabel('URL (http or https)').fill(hookUrl);
    await endpointForm.getByLabel('transaction.posted').check();
    await endpointForm.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await endpointForm.locator('#endpoint-secret').textContent()).toMatch(/^whsec_/);
    await endpointForm.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('link', { name: hookUrl }).click();
    await page.getByText('No deliveries yet').waitFor();
    const delivered = new Promise<void>((resolve) => (onReceived = resolve));
    expect((await t.request('POST', '/transactions', { key, body: { amount: 1, currency: 'BEAN', from: 'treasury', to: 'bob', projectId } })).status).toBe(201);
    await delivered;
    expect(received).toBe(1);
    await page.locator('tr[data-delivery] td[data-field="status"]').filter({ hasText: 'succeeded' }).waitFor({ timeout: 10_000 });

    // the dashboard after the activity (pro has advanced_analytics)
    const dashboardStarted = Date.now();
    await nav(page, 'Dashboard');
    await settled(page, 'dashboard');
    measures.dashboardLoadMs = Date.now() - dashboardStarted;
    if (!analyticsOffered) await page.locator('.notice-title', { hasText: 'Analytics not available on this server' }).waitFor();

    // the theme toggle: dark, light, back to the system's
    await page.getByRole('button', { name: 'Theme: auto' }).click();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    const darkBackground = await page.evaluate(() => getComputedStyle((globalThis as any).document.body).backgroundColor);
    await page.getByRole('button', { name: 'Theme: dark' }).click();
    const lightBackground = await page.evaluate(() => getComputedStyle((globalThis as any).document.body).backgroundColor);
    expect(darkBackground).not.toBe(lightBackground);
    await page.getByRole('button', { name: 'Theme: light' }).click();
    expect(await page.locator('html').getAttribute('data-theme')).toBeNull();

    // every view at a desktop's and a phone's width, light and dark
    const views = ['dashboard', 'program', 'wallets', `wallets/${alice.id}`, 'transactions', `transactions/${transferId}`, 'holds', 'events', 'webhooks'];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
        for (const view of views) {
          await page.goto(`${t.baseUrl}/console#/${view}`);
          await settled(page, view.split('/')[0], view.includes('/') ? `#${view.split('/')[0].replace(/s$/, '')} dl.facts` : undefined);
          await page.screenshot({ path: path.join(SHOTS, `${view.replace('/', '-').replace(/[0-9a-f-]{36}$/, 'detail')}-${width}-${scheme}.png`), fullPage: true });
        }
      }
    }

    // the dashboard's figures, read well over a second after the last posting (§23): customers hold
    // alice's 90 and bob's 8; issued 120 + 7 + 1; redeemed the reversal's 20 and the capture's 10
    if (analyticsOffered) {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${t.baseUrl}/console#/program`);
      await settled(page, 'program');
      await nav(page, 'Dashboard');
      const stat = (key: string) => page.locator(`[data-total="${key}"] .stat-value`);
      await stat('outstanding').waitFor();
      expect(await stat('outstanding').textContent()).toBe('98 BEAN');
      expect(await stat('outstandingValue').textContent()).toBe('9.80');
      expect(await stat('issued').textContent()).toBe('128 BEAN');
      expect(await stat('redeemed').textContent()).toBe('30 BEAN');
      expect(await page.locator('.view-dashboard svg.series-chart rect.bar-issued').count()).toBe(1); // one day
      await page.getByLabel('Period').selectOption({ label: 'Last 48 hours, hourly' });
      await page.getByRole('heading', { name: 'BEAN per hour, last 48 hours' }).waitFor();
      expect(await stat('issued').textContent()).toBe('128 BEAN');
    }

    expect(origins.foreign).toEqual([]);
    expect(csp.violations).toEqual([]);
  });

  it('tells a plan without advanced_analytics that the dashboard is not in its plan', async () => {
    const key = await t.issueKey('console-free', 'free');
    expect((await t.request('POST', '/projects', { key, body: { name: 'Free club' } })).status).toBe(201);
    const { page, csp, origins } = await openPage(390);
    await signIn(page, key);
    await page.locator('.notice-title', { hasText: 'Analytics are not in your plan' }).waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'dashboard-free-plan-390-light.png'), fullPage: true });
    expect(origins.foreign).toEqual([]);
    expect(csp.violations).toEqual([]);
  });
});

/** Whether this build of the service has a route (analytics, limits and monitors come from other branches). */
async function offers(pathAndQuery: string, key: string): Promise<boolean> {
  const res = await t.request('GET', pathAndQuery, { key });
  return !(res.status === 404 && /^no route for /.test(res.body.message));
}
