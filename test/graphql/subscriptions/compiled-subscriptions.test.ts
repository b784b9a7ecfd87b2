import { fundedProject, transfer, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { WsClient, wsUrl } from '../support/ws-client.js';

/**
 * Subscriptions run from documents compiled once per text (compiled-subscriptions.ts): the
 * compiled function is shared by every subscription with the same document, whoever holds it, so
 * what varies — the owner, the variables, the subscriber's feed — must come from each
 * subscription, never from the first one that compiled it.
 */
let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await startTestApp();
  url = wsUrl(t.baseUrl);
});
afterAll(() => t.close());

const LEDGER_EVENTS = 'subscription($projectId: ID!) { ledgerEvents(projectId: $projectId) { id seq type projectId data } }';
const TRANSFERS = 20;

describe('one document, two owners, one instance, one burst', () => {
  it('each subscriber gets its own project’s events only, each exactly once, in seq order', async () => {
    const keys = [await t.issueKey('compiled-a'), await t.issueKey('compiled-b')];
    const projects: FundedProject[] = [];
    for (const key of keys) projects.push(await fundedProject(t, key, { customers: 1 }));
    const clients = await Promise.all(keys.map((key) => WsClient.connect(url, key)));
    try {
      for (const [i, client] of clients.entries()) {
        const open = t.app.services.eventFeeds.size;
        client.subscribe('events', LEDGER_EVENTS, { projectId: String(projects[i].projectId) });
        await t.app.services.eventFeeds.whenSize((size) => size > open);
      }
      // Both owners' transfers wait for their numbers, then are numbered and handed over together:
      // one page of the hub holds both projects' events, interleaved.
      const sequencer = t.app.services.eventSequencer;
      await sequencer.stop();
      try {
        await Promise.all(projects.flatMap((p) => Array.from({ length: TRANSFERS }, () => transfer(t, p, p.system.id, p.customers[0].id, 0.01))));
      } finally {
        sequencer.start();
      }
      await sequencer.flush();
      await t.app.services.eventHub.wake();
      for (const [i, client] of clients.entries()) {
        const events = (await client.take('events', TRANSFERS)).map((m) => m.data.ledgerEvents);
        expect(new Set(events.map((e) => e.projectId))).toEqual(new Set([String(projects[i].projectId)]));
        expect(new Set(events.map((e) => e.id)).size).toBe(TRANSFERS);
        expect(events.every((e) => e.type === 'transaction.posted' && e.data.to === projects[i].customers[0].address)).toBe(true);
        const seqs = events.map((e) => e.seq);
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
        expect(client.pending).toBe(0);
      }
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});

describe('a document graphql-jit would merge wrongly (conditional fields) keeps the interpreter', () => {
  it('sends the fields its @include variables ask for', async () => {
    const key = await t.issueKey('compiled-include');
    const p = await fundedProject(t, key, { customers: 1 });
    const client = await WsClient.connect(url, key);
    try {
      const open = t.app.services.eventFeeds.size;
      const query = 'subscription($projectId: ID!, $withData: Boolean!) { ledgerEvents(projectId: $projectId) { id type ... on LedgerEvent @include(if: $withData) { id data } } }';
      client.subscribe('with', query, { projectId: String(p.projectId), withData: true });
      client.subscribe('without', query, { projectId: String(p.projectId), withData: false });
      await t.app.services.eventFeeds.whenSize((size) => size >= open + 2);
      await transfer(t, p, p.system.id, p.customers[0].id, 1);
      const [withData] = (await client.take('with', 1)).map((m) => m.data.ledgerEvents);
      const [without] = (await client.take('without', 1)).map((m) => m.data.ledgerEvents);
      expect(withData).toEqual({ id: without.id, type: 'transaction.posted', data: expect.objectContaining({ to: p.customers[0].address }) });
      expect(without).toEqual({ id: withData.id, type: 'transaction.posted' });
    } finally {
      await client.close();
    }
  });
});
