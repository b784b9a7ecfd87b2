import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (apt-get install chromium); Playwright's own browser download cannot run here. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * Every request the page makes, so a test can insist that none leaves the service's origin.
 * Requests to another origin are aborted (the machine has no network anyway) and recorded.
 */
export async function watchOrigins(page: Page, origin: string): Promise<{ foreign: string[]; all: string[] }> {
  const seen = { foreign: [] as string[], all: [] as string[] };
  await page.route('**/*', (route) => {
    const url = route.request().url();
    seen.all.push(url);
    if (url.startsWith('data:') || url.startsWith('blob:') || new URL(url).origin === origin) return route.continue();
    seen.foreign.push(url);
    return route.abort();
  });
  return seen;
}

/**
 * Every Content-Security-Policy violation the page reports (CONTRACT §18: the pages work under
 * their policy), from three places: the `securitypolicyviolation` events of the document (an init
 * script, which CSP does not govern, forwards them), Chromium's console ("Refused to …"), and
 * uncaught page errors (an `eval` refused by CSP throws). A test ends with `expect(csp.violations).toEqual([])`.
 */
export async function watchCsp(page: Page): Promise<{ violations: string[] }> {
  const seen = { violations: [] as string[] };
  await page.exposeBinding('__reportCspViolation', (_source, text: string) => void seen.violations.push(text));
  await page.addInitScript(() => {
    const report = (globalThis as unknown as { __reportCspViolation(text: string): void }).__reportCspViolation;
    (globalThis as unknown as { document: { addEventListener(type: string, listener: (e: any) => void): void } }).document.addEventListener('securitypolicyviolation', (e) =>
      report(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber}) ${String(e.sample ?? '').slice(0, 80)}`),
    );
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) seen.violations.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => {
    if (/Content Security Policy|unsafe-eval|Refused/i.test(error.message)) seen.violations.push(`page error: ${error.message}`);
  });
  return seen;
}
