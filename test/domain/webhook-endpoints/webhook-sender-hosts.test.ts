import { UrlGuard } from '../../../src/domain/webhook-endpoints/url-guard.js';
import { WebhookSender } from '../../../src/domain/webhook-endpoints/webhook-sender.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

/**
 * Endpoints of different owners may share a host (a webhook relay, a no-code platform): requests
 * to one host that hang must not queue another request to it inside the HTTP agent, where the
 * worker's lanes cannot see them (CONTRACT §18, fair webhooks). The worker bounds the requests
 * in flight; the agent adds no bound per host.
 */
describe('WebhookSender, many requests to one host', () => {
  it('sends at once to a host that already holds 100 requests unanswered', async () => {
    const receiver = await WebhookReceiver.start((request) => (request.path === '/h' ? 'hang' : 200));
    const sender = new WebhookSender(new UrlGuard(true), 10_000);
    const cut = new AbortController();
    try {
      const hanging = Array.from({ length: 100 }, () => sender.send(`${receiver.origin}/h`, {}, '{}', cut.signal));
      let settled = 0;
      for (const send of hanging) void send.then(() => settled++);
      await receiver.waitFor((r) => r.length === 100, 'the 100 requests that hang, all arrived', 8_000);
      const result = await sender.send(`${receiver.origin}/y`, {}, '{}');
      expect(result).toEqual({ ok: true, responseStatus: 200, error: null });
      // none of the 100 had ended (10 s time-out): the request did not wait for a socket of theirs
      expect([receiver.open.get('/h'), settled]).toEqual([100, 0]);
      cut.abort();
      await Promise.all(hanging);
    } finally {
      sender.close();
      await receiver.close();
    }
  }, 20_000);
});
