import type { WebhookOptions } from '../../src/services.js';
import { expectStatus, fundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/** Private targets allowed (the receiver is on 127.0.0.1). */
const WEBHOOKS: WebhookOptions = { allowPrivate: true, timeoutMs: 2_000, retryBaseMs: 100, maxAttempts: 6, concurrency: 8, pollMs: 200 };

let t: TestApp;
let receiver: WebhookReceiver;
beforeAll(async () => {
  [t, receiver] = await Promise.all([startTestApp({ webhooks: WEBHOOKS }), WebhookReceiver.start()]);
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

describe('OpenAPI webhooks: what the service really sends', () => {
  it('a transaction.posted delivery carries the documented headers and body, field for field', async () => {
    const key = await t.issueKey('webhook-doc');
    const p = await fundedProject(t, key, { systemBalance: '0', customers: 1 });
    await expectStatus(t.request('POST', '/webhook-endpoints', { key, body: { projectId: p.projectId, url: receiver.url, types: ['transaction.posted'] } }), 201);
    await expectStatus(t.request('POST', '/transactions/seed', { key, body: { amount: 5, currency: p.symbol, projectId: p.projectId, to: p.system.id } }), 201);
    await receiver.waitFor((items) => items.length > 0, 'the delivery');
    const [delivery] = receiver.items;

    const spec = (await t.request('GET', '/openapi.json')).body;
    const component = (ref: string) => spec.components.schemas[ref.replace('#/components/schemas/', '')];
    const post = spec.webhooks['transaction.posted'].post;
    const sent = Object.keys(delivery.headers).filter((name) => name.startsWith('webhook-'));
    expect(sent.sort()).toEqual(post.parameters.map((p: { name: string }) => p.name).sort());
    for (const header of post.parameters) expect(String(delivery.headers[header.name])).toMatch(new RegExp(header.schema.pattern ?? '.'));

    const documented = component(post.requestBody.content['application/json'].schema.$ref);
    const body = JSON.parse(delivery.body);
    expect(Object.keys(body).sort()).toEqual(Object.keys(documented.properties).sort());
    expect(body.type).toBe(documented.properties.type.const);
    const transaction = component(documented.properties.data.$ref);
    expect(Object.keys(body.data).sort()).toEqual([...transaction.required].sort());
    expect(Object.keys(body.data).sort()).toEqual(Object.keys(transaction.properties).sort());
  });
});
