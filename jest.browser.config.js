/** `npm run test:browser`: the browser tests (test/web/browser/*.browser.ts: src/web through a browser) against the real service, in Debian's Chromium. */
import base from './jest.config.js';

export default { ...base, testMatch: ['**/test/web/browser/**/*.browser.ts'], maxWorkers: 1, testTimeout: 120000 };
