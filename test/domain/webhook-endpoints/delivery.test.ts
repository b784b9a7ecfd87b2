import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { WebhookOptions } from '../../../src/services.js';
import { expectStatus, fundedProject, ISO_MS, transfer, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import type { AttemptReport } from '../../../src/domain/webhook-endpoints/delivery-worker.js';
import { attemptsOf, Observed, WebhookReceiver } from '../../support/webhook-receiver.js';

/** Private targets allowed (the receiver is on 127.0.0.1); retries 100 ms × 3^n apart. */
const FAST: WebhookOptions = { allowPrivate: true, timeoutMs: 2_000, retryBaseMs: 100, maxAttempts: 6, concurrency: 8, pollMs: 200 };

/**
 * Standard Webhooks verification written from the specification (www.standardwebhooks.com), not
 * from the service's code: the key is the base64 after `whsec_`; the signed content is
 * `${webhook-id}.${webhook-timestamp}.${body}`; `webhook-signature` is a space-separated list of
 * `v1,<base64 HMAC-SHA256>`, any of which may match; the timestamp must be recent (5 minutes).
 */
function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp({ webhooks: FAST });
  key = await t.issueKey('deliveries', 'enterprise');
});
afterAll(() => t.close());

/** Tests that run apps of their own give them a database of their own (no other worker takes their deliveries), and a key there. */
const keys = new WeakMap<TestApp, string>();
async function keyOf(app: TestApp): Promise<string> {
  if (app === t) return key;
  let found = keys.get(app);
  if (!found) {
    found = await app.issueKey('deliveries', 'enterprise');
    keys.set(app, found);
  }
  return found;
}

/** A project with a funded system wallet and two customers (its seed's event comes before any endpoint). */
const newProject = async (app: TestApp = t): Promise<FundedProject> => fundedProject(app, await keyOf(app), { systemBalance: 1_000_000 });
const newEndpoint = async (p: FundedProject, url: string, types?: string[], app: TestApp = t) =>
  expectStatus(app.request('POST', '/webhook-endpoints', { key: p.key, body: { projectId: p.projectId, url, ...(types && { types }) } }), 201);
const deliveriesOf = async (p: FundedProject, endpointId: string, app: TestApp = t) =>
  (await expectStatus(app.request('GET', `/webhook-endpoints/${endpointId}/deliveries?limit=100`, { key: p.key }), 200)).deliveries;

/** The event a change wrote (its id is the deliveries' webhook-id). */
async function eventOf(app: TestApp, subjectId: string, type: string): Promise<string> {
  const [row] = await app.db.query<{ id: string }>(`SELECT id FROM events WHERE subject_id = $1 AND type = $2`, [subjectId, type]);
  return row.id;
}

/** A transfer system → first customer; answers its transaction.posted event id and the transaction as POST /transactions answered it. */
async function posted(p: FundedProject, app: TestApp = t): Promise<{ eventId: string; transaction: Record<string, unknown> }> {
  const { transaction } = await transfer(app, p, p.system.id, p.customers[0].id, 1);
  return { eventId: await eventOf(app, transaction.id, 'transaction.posted'), transaction };
}

const jobsOf = async (endpointId: string) => t.db.query<{ event_id: string }>(`SELECT event_id FROM webhook_jobs WHERE endpoint_id = $1`, [endpointId]);

describe('outbound webhook delivery (CONTRACT §16)', () => {
  it('retries a receiver that fails twice: the same webhook-id three times, each signed, and three attempts logged', async () => {
    const receiver = await WebhookReceiver.start((_request, earlier) => (earlier < 2 ? 503 : 204));
    const attempts = attemptsOf(t);
    try {
      const p = await newProject();
      const endpoint = await newEndpoint(p, receiver.url);
      const committed = Date.now();
      const { eventId, transaction } = await posted(p);
      await receiver.waitFor((r) => r.length >= 3, 'three requests');
      await attempts.waitFor((a) => a.some((x) => x.eventId === eventId && x.attempt === 3), 'the third attempt recorded');

      expect(receiver.items[0].at - committed).toBeLessThan(5_000);
      expect(receiver.items.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId, eventId]);
      for (const request of receiver.items) {
        expect(request.headers['content-type']).toBe('application/json');
        expect(verifyStandardWebhook(endpoint.secret, request.headers, request.body)).toBe(true);
        expect(verifyStandardWebhook(endpoint.secret, request.headers, request.body.replace('}', ' }'))).toBe(false);
        // the body: the event's envelope, `data` the transaction as POST /transactions answered it
        const body = JSON.parse(request.body);
        expect(Object.keys(body)).toEqual(['id', 'type', 'created_at', 'data']);
        expect(body).toEqual({ id: eventId, type: 'transaction.posted', created_at: expect.stringMatching(ISO_MS), data: transaction });
      }
      // another endpoint's secret does not verify
      const stranger = await newEndpoint(p, receiver.url);
      expect(verifyStandardWebhook(stranger.secret, receiver.items[0].headers, receiver.items[0].body)).toBe(false);

      const log = await deliveriesOf(p, endpoint.id);
      expect(log).toEqual([
        { id: expect.any(String), eventId, attempt: 3, status: 'succeeded', responseStatus: 204, error: null, created_at: expect.stringMatching(ISO_MS) },
        { id: expect.any(String), eventId, attempt: 2, status: 'failed', responseStatus: 503, error: 'receiver answered 503', created_at: expect.stringMatching(ISO_MS) },
        { id: expect.any(String), eventId, attempt: 1, status: 'failed', responseStatus: 503, error: 'receiver answered 503', created_at: expect.stringMatching(ISO_MS) },
      ]);
      expect(await jobsOf(endpoint.id)).toEqual([]);
      const metrics = await (await fetch(`${t.baseUrl}/metrics`)).text();
      expect(metrics).toMatch(/ledger_webhook_deliveries_total\{outcome="failed"\} [2-9]/);
      expect(metrics).toMatch(/ledger_webhook_deliveries_total\{outcome="succeeded"\} [1-9]/);
    } finally {
      await receiver.close();
    }
  });

  it('counts no answer within the timeout as a failed attempt (responseStatus null) and retries', async () => {
    const app = await startTestApp({ webhooks: { ...FAST, timeoutMs: 300 } });
    const receiver = await WebhookReceiver.start((_request, earlier) => (earlier === 0 ? 'hang' : 200));
    const attempts = attemptsOf(app);
    try {
      const p = await newProject(app);
      const endpoint = await newEndpoint(p, receiver.url, undefined, app);
      const { eventId } = await posted(p, app);
      await attempts.waitFor((a) => a.some((x) => x.eventId === eventId && x.status === 'succeeded'), 'the retry to succeed');
      const log = await deliveriesOf(p, endpoint.id, app);
      expect(log.map((d: { attempt: number; status: string; responseStatus: number | null }) => [d.attempt, d.status, d.responseStatus])).toEqual([
        [2, 'succeeded', 200],
        [1, 'failed', null],
      ]);
      expect(log[1].error).toBe('no answer within 300 ms');
    } finally {
      await receiver.close();
      await app.close();
    }
  });
});

describe('the delivery log (CONTRACT §16 clarification)', () => {
  it("lists attempts newest first by when each was made, created_at its start: an attempt recorded late keeps its place", async () => {
    // a time-out long enough that the first attempt is answered, not cut, however slow the machine;
    // and the lanes play no part (the first attempt stays prompt, slots enough for the owner's second)
    const app = await startTestApp({ webhooks: { ...FAST, concurrency: 32, timeoutMs: 10_000, promptMs: 10_000 } });
    const receiver = await WebhookReceiver.start();
    const recorded = attemptsOf(app);
    try {
      const p = await newProject(app);
      const endpoint = await newEndpoint(p, receiver.url, undefined, app);
      // the first event's attempt is answered only once the second event's attempt, made after it, is recorded
      let answerFirst!: (status: number) => void;
      const firstAnswer = new Promise<number>((resolve) => (answerFirst = resolve));
      receiver.answer = () => (receiver.items.length === 0 ? firstAnswer : 200);
      const first = await posted(p, app);
      await receiver.waitFor((r) => r.length === 1, "the first event's attempt under way");
      const second = await posted(p, app);
      await recorded.waitFor((r) => r.some((a) => a.eventId === second.eventId), "the second event's attempt recorded");
      answerFirst(200);
      await recorded.waitFor((r) => r.some((a) => a.eventId === first.eventId), "the first event's attempt recorded, after the second's");

      const log = await deliveriesOf(p, endpoint.id, app);
      expect(log.map((d: { eventId: string; status: string }) => [d.eventId, d.status])).toEqual([
        [second.eventId, 'succeeded'],
        [first.eventId, 'succeeded'],
      ]);
      // each created_at is when its request went out: no later than the receiver saw it, not when it was recorded
      const [newest, oldest] = log.map((d: { created_at: string }) => Date.parse(d.created_at));
      expect(oldest).toBeLessThanOrEqual(receiver.of(first.eventId)[0].at);
      expect(newest).toBeLessThanOrEqual(receiver.of(second.eventId)[0].at);
      expect(newest).toBeGreaterThanOrEqual(receiver.of(first.eventId)[0].at);
    } finally {
      await receiver.close();
      await app.close();
    }
  });
});

describe('what an endpoint receives', () => {
  it('only the events committed after its creation, of the types it asked for, of its own project', async () => {
    const receiver = await WebhookReceiver.start();
    const attempts = attemptsOf(t);
    try {
      const p = await newProject();
      const other = await newProject();
      const [a, b] = p.customers;
      const before = await posted(p);
      const endpoint = await newEndpoint(p, receiver.url, ['hold.created', 'wallet.status_changed']);
      const unwanted = await posted(p);
      const elsewhere = await expectStatus(t.request('POST', '/holds', { key: other.key, body: { amount: 1, currency: other.symbol, from: other.system.id, to: other.customers[0].id, projectId: other.projectId } }), 201);
      const { hold } = await expectStatus(t.request('POST', '/holds', { key: p.key, body: { amount: 1, currency: p.symbol, from: p.system.id, to: a.id, projectId: p.projectId } }), 201);
      await expectStatus(t.request('PUT', `/wallets/status/${b.id}`, { key: p.key, body: { status: 'suspended', projectId: p.projectId } }), 200);
      const wanted = await eventOf(t, hold.id, 'hold.created');
      const suspended = await eventOf(t, b.id, 'wallet.status_changed');
      await attempts.waitFor((x) => [wanted, suspended].every((id) => x.some((r) => r.eventId === id)), 'both wanted events recorded');
      // events become jobs in stream order: none of the earlier ones can still come
      expect(await jobsOf(endpoint.id)).toEqual([]);
      expect(receiver.items.map((r) => r.headers['webhook-id']).sort()).toEqual([wanted, suspended].sort());
      const bodies = Object.fromEntries(receiver.items.map((r) => [r.headers['webhook-id'], JSON.parse(r.body)]));
      expect(bodies[wanted]).toMatchObject({ type: 'hold.created', data: { ...hold, status: 'pending' } });
      expect(bodies[suspended]).toMatchObject({ type: 'wallet.status_changed', data: { id: b.id, status: 'suspended' } });
      const logged = (await deliveriesOf(p, endpoint.id)).map((d: { eventId: string }) => d.eventId);
      const elsewhereEvent = await eventOf(t, elsewhere.hold.id, 'hold.created');
      for (const never of [before.eventId, unwanted.eventId, elsewhereEvent]) expect(logged).not.toContain(never);
    } finally {
      await receiver.close();
    }
  });

  it('nothing more once deleted, not even a retry that was due', async () => {
    const deleted = await WebhookReceiver.start(() => 500);
    const witness = await WebhookReceiver.start();
    const attempts = attemptsOf(t);
    try {
      const p = await newProject();
      const gone = await newEndpoint(p, deleted.url);
      const kept = await newEndpoint(p, witness.url);
      const first = await posted(p);
      await attempts.waitFor((a) => a.some((x) => x.endpointId === gone.id && x.eventId === first.eventId), 'the first failed attempt');
      await expectStatus(t.request('DELETE', `/webhook-endpoints/${gone.id}`, { key: p.key }), 200);
      const seenBeforeDelete = deleted.items.length;
      expect(await jobsOf(gone.id)).toEqual([]);
      const second = await posted(p);
      // the witness endpoint of the same project gets the next event: the deleted one would have by then
      await attempts.waitFor((a) => a.some((x) => x.endpointId === kept.id && x.eventId === second.eventId), 'the witness delivery');
      expect(await jobsOf(gone.id)).toEqual([]);
      expect(deleted.items.length).toBe(seenBeforeDelete);
      expect(deleted.of(second.eventId)).toEqual([]);
    } finally {
      await deleted.close();
      await witness.close();
    }
  });
});

describe('deliveries survive instances', () => {
  it('a restart in the middle of the retries loses nothing and delivers once more', async () => {
    const slow: WebhookOptions = { ...FAST, retryBaseMs: 1_000 };
    const first = await startTestApp({ webhooks: slow });
    const receiver = await WebhookReceiver.start((_request, earlier) => (earlier === 0 ? 500 : 200));
    try {
      const p = await newProject(first);
      const endpoint = await newEndpoint(p, receiver.url, undefined, first);
      const attempts = attemptsOf(first);
      const { eventId } = await posted(p, first);
      await attempts.waitFor((a) => a.some((x) => x.eventId === eventId && x.retryInMs !== null), 'the failed first attempt');
      await first.close();

      const second = await startTestApp({ databaseUrl: first.databaseUrl, webhooks: slow });
      try {
        const resumed = attemptsOf(second);
        await resumed.waitFor((a) => a.some((x) => x.eventId === eventId && x.status === 'succeeded'), 'the retry by the new instance');
        expect(receiver.of(eventId)).toHaveLength(2);
        expect((await deliveriesOf(p, endpoint.id, second)).map((d: { attempt: number; status: string }) => [d.attempt, d.status])).toEqual([
          [2, 'succeeded'],
          [1, 'failed'],
        ]);
      } finally {
        await second.close();
      }
    } finally {
      await receiver.close();
    }
  });

  it('shutdown releases an attempt in flight: not recorded, and made again by the next instance', async () => {
    const first = await startTestApp({ webhooks: FAST });
    const receiver = await WebhookReceiver.start((_request, earlier) => (earlier === 0 ? 'hang' : 200));
    try {
      const p = await newProject(first);
      const endpoint = await newEndpoint(p, receiver.url, undefined, first);
      const { eventId } = await posted(p, first);
      await receiver.waitFor((r) => r.length === 1, 'the attempt in flight');
      await first.app.close(50); // SIGTERM: the hanging attempt is cut after the grace period and released
      await first.db.close();

      const second = await startTestApp({ databaseUrl: first.databaseUrl, webhooks: FAST });
      try {
        const attempts = attemptsOf(second);
        await attempts.waitFor((a) => a.some((x) => x.eventId === eventId), 'the attempt by the next instance');
        expect(await deliveriesOf(p, endpoint.id, second)).toEqual([expect.objectContaining({ eventId, attempt: 1, status: 'succeeded' })]);
        expect(receiver.of(eventId)).toHaveLength(2);
      } finally {
        await second.close();
      }
    } finally {
      await receiver.close();
    }
  });

  it("takes over a crashed instance's claim once its lease has run out", async () => {
    const crashed = await startTestApp({ webhooks: FAST });
    const receiver = await WebhookReceiver.start();
    try {
      await crashed.app.services.webhookDeliveries.stop(0); // it will claim nothing itself
      const p = await newProject(crashed);
      const endpoint = await newEndpoint(p, receiver.url, undefined, crashed);
      const { eventId } = await posted(p, crashed);
      // what an instance that claimed the job and died leaves behind: a lease that runs out in 300 ms
      await crashed.db.query(
        `INSERT INTO webhook_jobs (endpoint_id, project_id, event_id, stream_pos, lease_token, next_attempt_at)
         SELECT $1, project_id, id, 0, gen_random_uuid(), now() + interval '300 milliseconds' FROM events WHERE id = $2`,
        [endpoint.id, eventId],
      );
      const leasedAt = Date.now();
      const survivor = await startTestApp({ databaseUrl: crashed.databaseUrl, webhooks: FAST });
      try {
        const attempts = attemptsOf(survivor);
        await attempts.waitFor((a) => a.some((x) => x.eventId === eventId), 'the taken-over attempt');
        expect(Date.now() - leasedAt).toBeGreaterThanOrEqual(250);
        expect(receiver.of(eventId)).toHaveLength(1);
        expect(await deliveriesOf(p, endpoint.id, survivor)).toEqual([expect.objectContaining({ eventId, attempt: 1, status: 'succeeded' })]);
      } finally {
        await survivor.close();
      }
    } finally {
      await receiver.close();
      await crashed.close();
    }
  });

  it('two instances on one database make each attempt exactly once', async () => {
    const a = await startTestApp({ webhooks: { ...FAST, concurrency: 4 } });
    const b = await startTestApp({ databaseUrl: a.databaseUrl, webhooks: { ...FAST, concurrency: 4 } });
    // every event fails once, then succeeds: two attempts each
    const receiver = await WebhookReceiver.start((_request, earlier) => (earlier === 0 ? 500 : 200));
    try {
      const recorded = new Observed<AttemptReport & { by: TestApp }>();
      for (const app of [a, b]) app.app.services.webhookDeliveries.onAttempt((report) => recorded.push({ ...report, by: app }));
      const p = await newProject(a);
      const endpoint = await newEndpoint(p, receiver.url, undefined, a);
      const events: string[] = [];
      for (let i = 0; i < 40; i++) events.push((await posted(p, i % 2 ? a : b)).eventId);
      const all = () => recorded.items.filter((x) => x.endpointId === endpoint.id);
      await recorded.waitFor(() => all().filter((x) => x.status === 'succeeded').length === events.length, 'every event delivered');
      for (const eventId of events) expect(receiver.of(eventId)).toHaveLength(2);
      expect(receiver.items).toHaveLength(80);
      // both instances took part
      expect(all().filter((x) => x.by === a).length).toBeGreaterThan(0);
      expect(all().filter((x) => x.by === b).length).toBeGreaterThan(0);
      const attempts = all().map((x) => `${x.eventId}#${x.attempt}`);
      expect(new Set(attempts).size).toBe(80);
      const [{ n }] = await a.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM webhook_deliveries WHERE endpoint_id = $1`, [endpoint.id]);
      expect(n).toBe('80');
      const log = await deliveriesOf(p, endpoint.id, a);
      expect(log.every((d: { attempt: number; status: string }) => (d.attempt === 1) === (d.status === 'failed'))).toBe(true);
    } finally {
      await receiver.close();
      await a.close();
      await b.close();
    }
  });
});
