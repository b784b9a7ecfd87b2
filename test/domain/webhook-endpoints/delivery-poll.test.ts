import type { WebhookOptions } from '../../../src/services.js';
import { IDLE_POLL_MS } from '../../../src/domain/webhook-endpoints/delivery-worker.js';
import { expectStatus, fundedProject, transfer } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { attemptsOf, WebhookReceiver } from '../../support/webhook-receiver.js';

/**
 * The delivery worker's looks (CONTRACT §16): with no job anywhere it looks only every
 * IDLE_POLL_MS (a job appears only by a fan-out, which every instance hears at once); a new
 * event wakes it at once and a retry falls due at its time, whatever the poll. The poll here is
 * 20 s, so nothing the test sees can come from it.
 */
const SLOW_POLL: WebhookOptions = { allowPrivate: true, timeoutMs: 2_000, retryBaseMs: 100, maxAttempts: 6, concurrency: 8, pollMs: 20_000 };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 500 }, webhooks: SLOW_POLL });
});
afterAll(() => t.close());

describe('webhook delivery looks', () => {
  it('looks every IDLE_POLL_MS (at least pollMs) while no job exists, then pollMs while one does; new events and retries wake it at their time', async () => {
    const worker = t.app.services.webhookDeliveries;
    await worker.settled();
    expect(worker.pollPeriodMs()).toBe(Math.max(SLOW_POLL.pollMs, IDLE_POLL_MS));

    const receiver = await WebhookReceiver.start();
    receiver.answer = (_request, earlier) => (earlier < 1 ? 503 : 204);
    const attempts = attemptsOf(t);
    try {
      const key = await t.issueKey('delivery-poll', 'enterprise');
      const p = await fundedProject(t, key, { systemBalance: 1_000 });
      await expectStatus(t.request('POST', '/webhook-endpoints', { key: p.key, body: { projectId: p.projectId, url: receiver.url } }), 201);
      const committed = Date.now();
      await transfer(t, p, p.system.id, p.customers[0].id, 1);
      // the first attempt: woken by the numbering's NOTIFY, not by a look
      await attempts.waitFor((a) => a.length >= 1, 'the first attempt');
      expect(receiver.items[0].at - committed).toBeLessThan(5_000);
      // its retry is due 100-200 ms later: attempted then, not at the next look 20 s away
      await attempts.waitFor((a) => a.some((x) => x.attempt === 2), 'the retry');
      expect(receiver.items[1].at - receiver.items[0].at).toBeLessThan(5_000);
    } finally {
      await receiver.close();
    }
  });

  it('looks every pollMs while a job exists (another instance may retry it, or die holding it)', async () => {
    const worker = t.app.services.webhookDeliveries;
    const receiver = await WebhookReceiver.start();
    receiver.answer = () => 503;
    const attempts = attemptsOf(t);
    try {
      const key = await t.issueKey('delivery-poll-2', 'enterprise');
      const p = await fundedProject(t, key, { systemBalance: 1_000 });
      await expectStatus(t.request('POST', '/webhook-endpoints', { key: p.key, body: { projectId: p.projectId, url: receiver.url } }), 201);
      await transfer(t, p, p.system.id, p.customers[0].id, 1);
      await attempts.waitFor((a) => a.length >= 1, 'the first attempt');
      await worker.settled();
      expect(worker.pollPeriodMs()).toBe(SLOW_POLL.pollMs);
    } finally {
      await t.db.query(`DELETE FROM webhook_jobs`);
      await receiver.close();
    }
  });
});
