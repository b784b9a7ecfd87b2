import { DEFAULTS } from '../../../src/config.js';
import type { WebhookOptions } from '../../../src/services.js';
import { expectStatus, fundedProject, transfer, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { Observed, WebhookReceiver } from '../../support/webhook-receiver.js';
import type { AttemptReport } from '../../../src/domain/webhook-endpoints/delivery-worker.js';

/**
 * CONTRACT §18, fair outbound webhooks: one project's endpoints that hang never delay another
 * project's first attempt past 5 s, and no endpoint has more than 4 attempts in flight at once
 * across all instances. Two instances of the app share one database, as in production.
 */

/** The production settings (10 s time-out, 32 slots per instance, 1 s poll); the receiver is on 127.0.0.1. */
const PRODUCTION: WebhookOptions = { ...DEFAULTS.webhooks, allowPrivate: true };

async function twoInstances(webhooks: WebhookOptions): Promise<[TestApp, TestApp]> {
  const a = await startTestApp({ webhooks });
  const b = await startTestApp({ databaseUrl: a.databaseUrl, webhooks });
  return [a, b];
}

const newEndpoint = (t: TestApp, p: FundedProject, url: string) =>
  expectStatus(t.request('POST', '/webhook-endpoints', { key: p.key, body: { projectId: p.projectId, url } }), 201);

/** A transfer on the project; answers its event id and when it committed (its 201). */
async function committedEvent(t: TestApp, p: FundedProject): Promise<{ eventId: string; committedAt: number }> {
  const { transaction } = await transfer(t, p, p.system.id, p.customers[0].id, 1);
  const committedAt = Date.now();
  const [row] = await t.db.query<{ id: string }>(`SELECT id FROM events WHERE subject_id = $1 AND type = 'transaction.posted'`, [transaction.id]);
  return { eventId: row.id, committedAt };
}

const openTo = (receiver: WebhookReceiver, prefix: string) => [...receiver.open].filter(([path]) => path.startsWith(prefix)).reduce((sum, [, n]) => sum + n, 0);

describe('fair outbound webhooks (CONTRACT §18), two instances on one database', () => {
  it("a project whose 20 endpoints hang does not delay another project's first attempts past 5 s; no endpoint over 4 in flight", async () => {
    const [a, b] = await twoInstances(PRODUCTION);
    // /x/<n> never answers (the connection is held until the sender's 10 s time-out); /y answers at once
    const receiver = await WebhookReceiver.start((request) => (request.path.startsWith('/x/') ? 'hang' : 200));
    try {
      const key = await a.issueKey('fairness', 'enterprise');
      const x = await fundedProject(a, key, { systemBalance: 1_000_000 });
      const y = await fundedProject(a, key, { systemBalance: 1_000_000 });
      for (let i = 0; i < 20; i++) await newEndpoint(a, x, `${receiver.origin}/x/${i}`);
      await newEndpoint(b, y, `${receiver.origin}/y`);

      // X: 20 events × 20 endpoints = 400 attempts wanted, every one of them hanging
      for (let i = 0; i < 20; i++) await transfer(i % 2 ? a : b, x, x.system.id, x.customers[0].id, 1);
      // both instances have taken what they give X (its owner's share of each one's prompt lane, and more once those move to the failing lane), all hanging
      await receiver.waitFor(() => openTo(receiver, '/x/') >= 16, "X's attempts hanging on both instances", 10_000);

      const delays: number[] = [];
      for (let i = 0; i < 5; i++) {
        const { eventId, committedAt } = await committedEvent(i % 2 ? a : b, y);
        await receiver.waitFor((r) => r.some((w) => w.path === '/y' && w.headers['webhook-id'] === eventId), `Y's event ${i + 1}`, 12_000);
        delays.push(receiver.items.find((w) => w.headers['webhook-id'] === eventId)!.at - committedAt);
      }
      console.log(`Y's first attempts while X's 20 endpoints hang: ${delays.map((d) => `${d} ms`).join(', ')}`);
      // X was hanging all along: its first attempts cannot have ended (10 s time-out) before Y's were made
      expect(openTo(receiver, '/x/')).toBeGreaterThanOrEqual(16);
      expect(Math.max(...delays)).toBeLessThan(5_000);
      const xPaths = [...receiver.mostOpen].filter(([path]) => path.startsWith('/x/'));
      expect(xPaths.length).toBeGreaterThan(0);
      for (const [, most] of xPaths) expect(most).toBeLessThanOrEqual(4);
    } finally {
      await receiver.close();
      await a.close();
      await b.close();
    }
  }, 30_000);

  it('keeps at most 4 attempts to one endpoint in flight across both instances, however many events wait', async () => {
    // a short time-out, so that the cap is seen over several rounds of hanging attempts
    const [a, b] = await twoInstances({ ...PRODUCTION, timeoutMs: 500, retryBaseMs: 100 });
    const receiver = await WebhookReceiver.start(() => 'hang');
    try {
      const recorded = new Observed<AttemptReport>();
      for (const app of [a, b]) app.app.services.webhookDeliveries.onAttempt((report) => recorded.push(report));
      const key = await a.issueKey('one-endpoint', 'enterprise');
      const p = await fundedProject(a, key, { systemBalance: 1_000_000 });
      await newEndpoint(a, p, `${receiver.origin}/only`);
      for (let i = 0; i < 30; i++) await transfer(i % 2 ? a : b, p, p.system.id, p.customers[0].id, 1);
      // three rounds of time-outs: each round, every instance looked for work while 4 were in flight
      await recorded.waitFor((r) => r.length >= 12, 'twelve timed-out attempts', 15_000);
      expect(receiver.mostOpen.get('/only')).toBe(4);
    } finally {
      await receiver.close();
      await a.close();
      await b.close();
    }
  }, 30_000);

  it("leases a dead instance left count as in flight until they run out: the endpoint's fifth attempt waits, then nothing is stuck", async () => {
    const t = await startTestApp({ webhooks: { ...PRODUCTION, pollMs: 50 } });
    const receiver = await WebhookReceiver.start();
    try {
      const key = await t.issueKey('dead-leases', 'enterprise');
      const p = await fundedProject(t, key, { systemBalance: 1_000_000 });
      // events from before the endpoint: the fan-out never makes jobs of them, only this test does
      const events: string[] = [];
      for (let i = 0; i < 5; i++) events.push((await committedEvent(t, p)).eventId);
      const endpoint = await newEndpoint(t, p, receiver.url);
      // what an instance that claimed four jobs and died leaves: leases that run out in 600 ms; and a fifth job, due
      await t.db.query(
        `INSERT INTO webhook_jobs (endpoint_id, project_id, event_id, stream_pos, lease_token, next_attempt_at)
         SELECT $1, project_id, id, 0, CASE WHEN id = $3 THEN NULL ELSE gen_random_uuid() END,
                CASE WHEN id = $3 THEN now() ELSE now() + interval '600 milliseconds' END
           FROM events WHERE id = ANY ($2::uuid[])`,
        [endpoint.id, events, events[4]],
      );
      const leasedAt = Date.now();
      t.app.services.webhookDeliveries.wake();
      await receiver.waitFor((r) => r.length >= 5, 'all five delivered once the leases ran out', 10_000);
      expect(receiver.items[0].at - leasedAt).toBeGreaterThanOrEqual(550);
      expect(receiver.items.map((r) => r.headers['webhook-id']).sort()).toEqual([...events].sort());
    } finally {
      await receiver.close();
      await t.close();
    }
  }, 30_000);
});
