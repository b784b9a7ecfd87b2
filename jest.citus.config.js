import base from './jest.config.js';

/**
 * The Citus lane (`npm run test:citus`, docs/decisions/citus-lane.md): the suites of postings,
 * holds, reversals, batches, events, subscriptions, webhooks, journal and analytics, against a
 * Citus coordinator and two workers (LEDGER_TEST_SERVER=citus; test/support/global-setup.mjs).
 */
export default {
  ...base,
  testMatch: [
    '<rootDir>/test/domain/ledger/ledger-post.test.ts',
    '<rootDir>/test/domain/events/*.test.ts',
    '<rootDir>/test/domain/journal/journal-chain.test.ts',
    '<rootDir>/test/domain/analytics/rollups.test.ts',
    '<rootDir>/test/domain/webhook-endpoints/delivery.test.ts',
    '<rootDir>/test/rest/transactions.test.ts',
    '<rootDir>/test/rest/holds.test.ts',
    '<rootDir>/test/rest/reversals-batches.test.ts',
    '<rootDir>/test/rest/events.test.ts',
    '<rootDir>/test/rest/webhook.test.ts',
    '<rootDir>/test/rest/journal.test.ts',
    '<rootDir>/test/rest/analytics.test.ts',
    '<rootDir>/test/graphql/subscriptions/subscriptions.test.ts',
  ],
};
