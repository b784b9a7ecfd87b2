/** `npm run test:browser`: the browser tests (test/browser/*.browser.ts) against the real service, in Debian's Chromium. */
import base from './jest.config.js';

export default { ...base, testMatch: ['**/test/browser/**/*.browser.ts'], maxWorkers: 1, testTimeout: 120000 };
