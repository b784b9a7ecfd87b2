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
