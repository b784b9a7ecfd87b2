import type { Browser } from 'playwright-core';
import { fundedProject, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { launch, watchCsp, watchOrigins } from './support.js';

/**
 * The browser pages (CONTRACT §17, issue 15) in a real headless Chromium against the running
 * service: the console moves money through its form and shows the new balance; GraphiQL and the
 * API reference render; no page requests anything from another origin, and none reports a
 * violation of its Content-Security-Policy (CONTRACT §18).
 */
let t: TestApp;
let f: FundedProject;
let browser: Browser;
const timings: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestApp();
  const key = await t.issueKey('browser-owner', 'pro');
  f = await fundedProject(t, key, { customers: 2, systemBalance: '100' });
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  console.log(`browser timings (ms): ${JSON.stringify(timings)}`);
});

describe('/console', () => {
  it('shows the wallets of a project, transfers through the form and shows the changed balance, all on this origin', async () => {
    const page = await browser.newPage();
    const csp = await watchCsp(page);
    const seen = await watchOrigins(page, t.baseUrl);
    let bytes = 0;
    page.on('response', (res) => void res.body().then((b) => (bytes += b.length)).catch(() => undefined));
    const started = Date.now();
    await page.goto(`${t.baseUrl}/console`);
    await page.getByLabel('API key').fill(f.key);
    await page.getByRole('button', { name: 'Use key' }).click();
    await page.getByLabel('Project', { exact: true }).selectOption(String(f.projectId));
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Wallets' }).click();
    const systemRow = page.locator(`tr[data-wallet="${f.system.id}"]`);
    await systemRow.locator(`td[data-field="${f.symbol}.balance"]`).filter({ hasText: /^100$/ }).waitFor();
    timings.consoleFirstLoad = Date.now() - started;
    timings.consoleFirstLoadBytes = bytes;

    await page.getByRole('button', { name: 'Transfer…' }).click();
    const form = page.getByRole('form', { name: 'Transfer' });
    await form.getByLabel('From (wallet id or address)').fill(f.system.address);
    await form.getByLabel('To (wallet id or address)').fill(f.customers[0].address);
    await form.getByLabel('Amount (major units)').fill('12.5');
    await form.getByLabel('Currency (asset symbol)').fill(f.symbol);
    await form.getByRole('button', { name: 'Transfer' }).click();
    await form.waitFor({ state: 'detached' }); // the dialog closes once the transfer is posted
    await systemRow.locator(`td[data-field="${f.symbol}.balance"]`).filter({ hasText: /^87\.5$/ }).waitFor();
    await page.locator(`tr[data-wallet="${f.customers[0].id}"] td[data-field="${f.symbol}.balance"]`).filter({ hasText: /^12\.5$/ }).waitFor();

    // the contract's error, shown as code and message
    await page.getByRole('button', { name: 'Transfer…' }).click();
    await form.getByLabel('From (wallet id or address)').fill(f.system.address);
    await form.getByLabel('To (wallet id or address)').fill(f.customers[0].address);
    await form.getByLabel('Amount (major units)').fill('1000');
    await form.getByRole('button', { name: 'Transfer' }).click();
    await page.locator('#transfer-result.error').filter({ hasText: 'insufficient_funds' }).waitFor();
    await form.getByRole('button', { name: 'Cancel' }).click();

    // a wallet's history and its balance chart
    await page.getByRole('link', { name: f.customers[0].address }).click();
    await page.locator('#wallet-activity table.history tbody tr').first().waitFor();
    expect(await page.locator('#wallet-activity svg.chart polyline').count()).toBe(1);

    expect(seen.foreign).toEqual([]);
    const balance = await t.request('GET', `/wallets/${f.customers[0].id}`, { key: f.key });
    expect(balance.body.balance[0].balance).toBe(12.5);
    expect(csp.violations).toEqual([]); // the page worked under its Content-Security-Policy
  });

  it('updates a balance live (walletChanged) when a transfer is made elsewhere', async () => {
    const page = await browser.newPage();
    const csp = await watchCsp(page);
    const feedsBefore = t.app.services.eventFeeds.size;
    await page.goto(`${t.baseUrl}/console`);
    await page.getByLabel('API key').fill(f.key);
    await page.getByRole('button', { name: 'Use key' }).click();
    await page.getByLabel('Project', { exact: true }).selectOption(String(f.projectId));
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Wallets' }).click();
    await page.locator('#live').filter({ hasText: 'Live' }).waitFor();
    const cell = page.locator(`tr[data-wallet="${f.customers[1].id}"] td[data-field="${f.symbol}.balance"]`);
    await cell.filter({ hasText: /^0$/ }).waitFor();
    // 'Live' means the socket is open; each row's subscription reaches the server a moment later
    const rows = await page.locator('tr[data-wallet]').count();
    await t.app.services.eventFeeds.whenSize((size) => size >= feedsBefore + rows);
    const started = Date.now();
    const res = await t.request('POST', '/transactions', { key: f.key, body: { amount: 2.5, currency: f.symbol, from: f.system.id, to: f.customers[1].id, projectId: f.projectId } });
    expect(res.status).toBe(201);
    await cell.filter({ hasText: /^2\.5$/ }).waitFor({ timeout: 2_000 }); // well before the 30 s re-read
    timings.consoleLiveUpdate = Date.now() - started;
    expect(csp.violations).toEqual([]); // the page worked under its Content-Security-Policy
  });
});

describe('/graphql in a browser', () => {
  it('serves GraphiQL with the api_key header ready to fill in, and runs a query with it', async () => {
    const page = await browser.newPage();
    const csp = await watchCsp(page);
    const seen = await watchOrigins(page, t.baseUrl);
    const started = Date.now();
    await page.goto(`${t.baseUrl}/graphql`);
    await page.locator('.graphiql-container').waitFor();
    timings.graphiqlLoad = Date.now() - started;
    expect(await page.locator('.graphiql-container').textContent()).toContain('api_key');
    // fill the api_key in the headers editor (CodeMirror) and run the default query
    await page.evaluate((key) => {
      // runs in the page, where `document` exists (this file is type-checked without the DOM lib)
      const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<unknown> } }).document;
      const editors = Array.from(doc.querySelectorAll('.graphiql-editor-tool .CodeMirror')) as { CodeMirror: { getValue(): string; setValue(v: string): void } }[];
      const headers = editors.find((e) => e.CodeMirror.getValue().includes('api_key'))!;
      headers.CodeMirror.setValue(JSON.stringify({ api_key: key }));
    }, f.key);
    await page.locator('.graphiql-execute-button').click();
    await page.locator('.result-window').filter({ hasText: 'planCode' }).filter({ hasText: 'pro' }).waitFor();
    expect(seen.foreign).toEqual([]);

    // a subscription runs over WebSocket with the same api_key; a transfer shows up in the result
    const wallet = f.customers[0].id;
    await page.evaluate((query) => {
      const doc = (globalThis as unknown as { document: { querySelector(s: string): unknown } }).document;
      const editor = doc.querySelector('.graphiql-query-editor .CodeMirror') as { CodeMirror: { setValue(v: string): void } };
      editor.CodeMirror.setValue(query);
    }, `subscription { walletChanged(walletId: "${wallet}") { id balances { balance } } }`);
    const before = t.app.services.eventFeeds.size; // the console pages above may still hold theirs
    await page.locator('.graphiql-execute-button').click();
    await t.app.services.eventFeeds.whenSize((size) => size > before);
    const res = await t.request('POST', '/transactions', { key: f.key, body: { amount: 1, currency: f.symbol, from: f.system.id, to: wallet, projectId: f.projectId } });
    expect(res.status).toBe(201);
    await page.locator('.result-window').filter({ hasText: 'walletChanged' }).filter({ hasText: wallet }).waitFor();
    expect(csp.violations).toEqual([]); // the page worked under its Content-Security-Policy
  });
});

describe('/docs', () => {
  it('renders the REST reference from /openapi.json without leaving the origin', async () => {
    const page = await browser.newPage();
    const csp = await watchCsp(page);
    const seen = await watchOrigins(page, t.baseUrl);
    const started = Date.now();
    await page.goto(`${t.baseUrl}/docs`);
    await page.getByText('/transactions/seed').first().waitFor({ timeout: 60_000 });
    timings.docsLoad = Date.now() - started;
    expect(seen.all.some((u) => u.endsWith('/openapi.json'))).toBe(true);
    expect(seen.foreign).toEqual([]);
    expect(csp.violations).toEqual([]); // the page worked under its Content-Security-Policy
  });
});
