import { DEFAULTS } from '../../../src/config.js';
import type { WebhookOptions } from '../../../src/services.js';
import { expectStatus, fundedProject, transfer, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { attemptsOf, WebhookReceiver } from '../../support/webhook-receiver.js';

/**
 * CONTRACT §18, "fair webhooks, between owners first": however many endpoints of however many
 * projects and owners hang, an endpoint that answers promptly gets each first attempt within 5 s
 * of the commit. Real receivers on 127.0.0.1 that never answer (held until the sender's time-out).
 */

/** The production settings (10 s time-out, 32 slots per instance, 1 s poll); the receiver is on 127.0.0.1. */
const PRODUCTION: WebhookOptions = { ...DEFAULTS.webhooks, allowPrivate: true };

const newEndpoint = (t: TestApp, p: FundedProject, url: string) =>
  expectStatus(t.request('POST', '/webhook-endpoints', { key: p.key, body: { projectId: p.projectId, url } }), 201);

/** `events` transfers on the project in one batch (each one event, each event one attempt per endpoint). */
const batchOf = (t: TestApp, p: FundedProject, events: number) =>
  expectStatus(
    t.request('POST', '/transactions/batch', { key: p.key, body: { projectId: p.projectId, transfers: Array.from({ length: events }, () => ({ amount: 0.01, currency: p.symbol, from: p.system.id, to: p.customers[0].id })) } }),
    201,
  );

/** Projects of hanging endpoints /h/<owner>/<project>/<endpoint>, `events` events each; the owners' keys are new. */
async function hangingOwners(apps: TestApp[], receiver: WebhookReceiver, shape: { owners: number; projects: number; endpoints: number; events: number }): Promise<void> {
  const projects: FundedProject[] = [];
  for (let o = 0; o < shape.owners; o++) {
    const key = await apps[0].issueKey(`hangs-${o}`, 'enterprise');
    for (let p = 0; p < shape.projects; p++) {
      const project = await fundedProject(apps[0], key, { systemBalance: 1_000_000 });
      for (let e = 0; e < shape.endpoints; e++) await newEndpoint(apps[e % apps.length], project, `${receiver.origin}/h/${o}/${p}/${e}`);
      projects.push(project);
    }
  }
  await Promise.all(projects.map((p, i) => batchOf(apps[i % apps.length], p, shape.events)));
}

const openTo = (receiver: WebhookReceiver, prefix: string) => [...receiver.open].filter(([path]) => path.startsWith(prefix)).reduce((sum, [, n]) => sum + n, 0);

/** Single transfers on the prompt project, one at a time, alternating the apps: each one's delay from its 201 to its arrival at /y. */
async function firstAttemptDelays(apps: TestApp[], receiver: WebhookReceiver, y: FundedProject, samples: number): Promise<number[]> {
  const delays: number[] = [];
  for (let i = 0; i < samples; i++) {
    const app = apps[i % apps.length];
    const { transaction } = await transfer(app, y, y.system.id, y.customers[0].id, 1);
    const committedAt = Date.now();
    const [{ id: eventId }] = await app.db.query<{ id: string }>(`SELECT id FROM events WHERE subject_id = $1 AND type = 'transaction.posted'`, [transaction.id]);
    await receiver.waitFor((r) => r.some((w) => w.path === '/y' && w.headers['webhook-id'] === eventId), `Y's event ${i + 1}`, 15_000);
    delays.push(receiver.of(eventId)[0].at - committedAt);
  }
  return delays;
}

describe('fair outbound webhooks between owners (CONTRACT §18)', () => {
  it("three owners × four projects of hanging endpoints: a fourth owner's prompt endpoint gets each first attempt within 5 s, on two instances", async () => {
    const a = await startTestApp({ webhooks: PRODUCTION });
    const b = await startTestApp({ databaseUrl: a.databaseUrl, webhooks: PRODUCTION });
    const receiver = await WebhookReceiver.start((request) => (request.path.startsWith('/h/') ? 'hang' : 200));
    try {
      const y = await fundedProject(a, { owner: 'prompt-owner' }, { systemBalance: 1_000_000 });
      await newEndpoint(b, y, `${receiver.origin}/y`);
      // 3 × 4 × 5 = 60 endpoints, 10 events each: 600 attempts wanted, every one of them hanging for 10 s
      await hangingOwners([a, b], receiver, { owners: 3, projects: 4, endpoints: 5, events: 10 });
      await receiver.waitFor(() => openTo(receiver, '/h/') >= 32, 'hanging attempts open on both instances', 10_000);

      const delays = await firstAttemptDelays([a, b], receiver, y, 5);
      console.log(`Y's first attempts while 3 owners × 4 projects × 5 endpoints hang: ${delays.map((d) => `${d} ms`).join(', ')}`);
      // the hanging attempts were there all along: none answers, and each lasts the full 10 s
      expect(openTo(receiver, '/h/')).toBeGreaterThanOrEqual(16);
      expect(Math.max(...delays)).toBeLessThan(5_000);
      const hanging = [...receiver.mostOpen].filter(([path]) => path.startsWith('/h/'));
      expect(hanging.length).toBeGreaterThan(0);
      for (const [, most] of hanging) expect(most).toBeLessThanOrEqual(4);
    } finally {
      await receiver.close();
      await a.close();
      await b.close();
    }
  }, 60_000);

  it("an owner with twelve projects of hanging endpoints cannot starve another owner's project", async () => {
    const t = await startTestApp({ webhooks: PRODUCTION });
    const receiver = await WebhookReceiver.start((request) => (request.path.startsWith('/h/') ? 'hang' : 200));
    try {
      const y = await fundedProject(t, { owner: 'starved-owner' }, { systemBalance: 1_000_000 });
      await newEndpoint(t, y, `${receiver.origin}/y`);
      // per project a quarter of the slots, as the claim gave before: twelve projects would hold them all
      await hangingOwners([t], receiver, { owners: 1, projects: 12, endpoints: 2, events: 10 });
      await receiver.waitFor(() => openTo(receiver, '/h/') >= 6, "the owner's attempts hanging", 10_000);

      const delays = await firstAttemptDelays([t], receiver, y, 3);
      expect(openTo(receiver, '/h/')).toBeGreaterThanOrEqual(6);
      expect(Math.max(...delays)).toBeLessThan(5_000);
    } finally {
      await receiver.close();
      await t.close();
    }
  }, 60_000);
});

describe('failing endpoints are served apart from prompt ones (CONTRACT §18)', () => {
  it("an attempt unanswered after the prompt time leaves the prompt lane: another owner's goes out while it still hangs; answering promptly brings its endpoint back", async () => {
    // one slot: without lanes, the hanging attempt would hold it for the whole 4 s time-out
    const t = await startTestApp({ webhooks: { ...PRODUCTION, concurrency: 1, timeoutMs: 4_000, retryBaseMs: 100, pollMs: 200 } });
    const worker = t.app.services.webhookDeliveries;
    let hangingWhenPromptArrived: number | undefined;
    const receiver = await WebhookReceiver.start((request, earlier) => {
      if (request.path === '/p') hangingWhenPromptArrived = receiver.open.get('/h');
      return request.path === '/h' && earlier === 0 ? 'hang' : 200;
    });
    const attempts = attemptsOf(t);
    const failingSince = async (endpointId: string) => (await t.db.query<{ at: Date | null }>(`SELECT failing_since AS at FROM webhook_endpoints WHERE id = $1`, [endpointId]))[0].at;
    try {
      const h = await fundedProject(t, { owner: 'lane-hangs' }, { systemBalance: 1_000 });
      const p = await fundedProject(t, { owner: 'lane-prompt' }, { systemBalance: 1_000 });
      const hanging = await newEndpoint(t, h, `${receiver.origin}/h`);
      const prompt = await newEndpoint(t, p, `${receiver.origin}/p`);
      expect(await failingSince(hanging.id)).toBeNull();

      await transfer(t, h, h.system.id, h.customers[0].id, 1);
      await receiver.waitFor((r) => r.some((w) => w.path === '/h'), "the hanging endpoint's attempt under way");
      await transfer(t, p, p.system.id, p.customers[0].id, 1);
      await receiver.waitFor((r) => r.some((w) => w.path === '/p'), "the prompt endpoint's attempt");
      expect(hangingWhenPromptArrived).toBe(1);
      // the hanging endpoint was marked before the claim that took the prompt one's attempt
      expect(await failingSince(hanging.id)).toBeInstanceOf(Date);
      expect(await failingSince(prompt.id)).toBeNull();

      // the time-out, then the retry (in the failing lane) answered at once: prompt again
      await attempts.waitFor((r) => r.some((x) => x.endpointId === hanging.id && x.status === 'succeeded'), 'the retry answered');
      await worker.settled();
      expect(await failingSince(hanging.id)).toBeNull();
      expect(attempts.items.filter((x) => x.endpointId === hanging.id).map((x) => [x.attempt, x.status, x.error])).toEqual([
        [1, 'failed', 'no answer within 4000 ms'],
        [2, 'succeeded', null],
      ]);
    } finally {
      await receiver.close();
      await t.close();
    }
  }, 30_000);
});
