import { ADMIN_TOKEN, startTestApp, type TestApp } from '../../support/test-app.js';
import { fundedProject, UNKNOWN_UUID, type FundedProject } from '../../support/fixtures.js';
import { WsClient, wsUrl } from '../support/ws-client.js';

/**
 * CONTRACT §16: subscriptions over WebSocket on /graphql (graphql-transport-ws). What does not
 * need an event: authentication (4401), tenancy (not_found before any event), the limits, and
 * which operations each transport serves. Events: subscription-events.test.ts.
 */
let t: TestApp;
let url: string;
let key: string;
let mine: FundedProject;
let theirs: FundedProject;
beforeAll(async () => {
  t = await startTestApp();
  url = wsUrl(t.baseUrl);
  key = await t.issueKey('subs-owner');
  mine = await fundedProject(t, key, { customers: 1 });
  theirs = await fundedProject(t, await t.issueKey('subs-other'), { customers: 1 });
});
afterAll(() => t.close());

const WALLET_CHANGED = 'subscription($id: ID!) { walletChanged(walletId: $id) { id balances { currency balance } } }';

describe('connection_init and the api_key', () => {
  it.each([
    ['no api_key in the payload', {}],
    ['an unknown api_key', { api_key: 'lk_not-a-key' }],
    ['an api_key that is not a string', { api_key: 42 }],
  ])('closes the socket with 4401 on %s', async (_case, payload) => {
    const client = await WsClient.open(url, payload);
    expect(await client.closed).toEqual({ code: 4401, reason: expect.stringMatching(/api_key/) });
  });

  it('closes with 4401 when connection_init has no payload at all', async () => {
    const client = await WsClient.open(url);
    client.send({ type: 'connection_init' });
    expect((await client.closed).code).toBe(4401);
  });

  it('acknowledges a known api_key', async () => {
    const client = await WsClient.connect(url, key);
    await client.close();
  });

  it('accepts the api_key as a header of the upgrade request too (gateways that forward headers)', async () => {
    const client = await WsClient.open(url, {}, { api_key: key });
    expect((await client.next()).type).toBe('connection_ack');
    await client.close();
  });

  it('refuses other paths and protocols', async () => {
    await expect(WsClient.open(`${t.baseUrl.replace('http', 'ws')}/projects`, {})).rejects.toThrow(/404/);
    // the legacy subscriptions-transport-ws protocol is not selected: the handshake fails
    await expect(WsClient.open(url, {}, undefined, 'graphql-ws')).rejects.toThrow(/no subprotocol/);
  });

  it('closes a connection with 4401 within 1 s of its key being revoked; the same owner’s other connections stay', async () => {
    const issue = (owner: string) => t.request('POST', '/admin/api-keys', { headers: { admin_token: ADMIN_TOKEN }, body: { owner, plan_code: 'pro' } });
    const doomed = (await issue('subs-revoked')).body;
    const kept = (await issue('subs-revoked')).body;
    const a = await WsClient.connect(url, doomed.api_key);
    const b = await WsClient.connect(url, kept.api_key);
    const revoked = Date.now();
    expect((await t.request('DELETE', `/admin/api-keys/${doomed.id}`, { headers: { admin_token: ADMIN_TOKEN } })).status).toBe(200);
    expect((await a.closed).code).toBe(4401);
    expect(Date.now() - revoked).toBeLessThan(1_000);
    b.send({ type: 'ping' });
    expect((await b.next()).type).toBe('pong');
    await b.close();
  });
});

describe('tenancy', () => {
  it.each([
    ["another owner's wallet", () => theirs.customers[0].id],
    ['a missing wallet', () => UNKNOWN_UUID],
  ])('walletChanged on %s: an error with not_found, no data, and the subscription completes', async (_case, id) => {
    const client = await WsClient.connect(url, key);
    client.subscribe('1', WALLET_CHANGED, { id: id() });
    const next = await client.next();
    expect(next).toEqual({ id: '1', type: 'next', payload: { errors: [expect.objectContaining({ extensions: { code: 'not_found', details: expect.any(Object) } })] } });
    expect(next.payload).not.toHaveProperty('data');
    expect(await client.next()).toEqual({ id: '1', type: 'complete' });
    await client.close();
  });

  it('walletChanged with a malformed id: validation_error', async () => {
    const client = await WsClient.connect(url, key);
    client.subscribe('1', WALLET_CHANGED, { id: 'nope' });
    const next = await client.next();
    expect(next.payload.errors[0].extensions).toEqual({ code: 'validation_error', details: expect.objectContaining({ field: 'id' }) });
    await client.close();
  });
});

describe('limits apply to subscription documents', () => {
  const refused = async (query: string, variables: Record<string, unknown> = { id: mine.customers[0].id }) => {
    const client = await WsClient.connect(url, key);
    client.subscribe('1', query, variables);
    const message = await client.next();
    await client.close();
    return message;
  };

  it('refuses a subscription 14 levels deep before running it', async () => {
    const query = `subscription($id: ID!) { walletChanged(walletId: $id) { project { wallets { edges { node { project { wallets { edges { node { project { wallets { edges { node { id } } } } } } } } } } } } } }`;
    const message = await refused(query);
    expect(message).toEqual({ id: '1', type: 'error', payload: [expect.objectContaining({ extensions: { code: 'validation_error', details: { limit: 'depth', maximum: 12, actual: 14 } } })] });
  });

  it('refuses more than 30 aliases', async () => {
    const fields = Array.from({ length: 31 }, (_, i) => `a${i}: id`).join(' ');
    const message = await refused(`subscription($id: ID!) { walletChanged(walletId: $id) { ${fields} } }`);
    expect(message.payload[0].extensions).toEqual({ code: 'validation_error', details: { limit: 'aliases', maximum: 30, actual: 31 } });
  });

  it('refuses a document over the cost budget', async () => {
    const query = `subscription($id: ID!) { walletChanged(walletId: $id) { project { wallets(first: 100) { edges { node { transactions(first: 100) { edges { node { id fromWallet { id } } } } } } } } } }`;
    const message = await refused(query);
    expect(message.payload[0].extensions).toEqual({ code: 'validation_error', details: expect.objectContaining({ limit: 'cost', maximum: 10_000 }) });
  });

  it('refuses a document over the token limit, and one that does not parse', async () => {
    const long = `subscription { walletChanged(walletId: "x") { ${'id '.repeat(5_000)} } }`;
    expect((await refused(long, {})).payload[0]).toMatchObject({ message: expect.stringMatching(/token/i), extensions: { code: 'validation_error' } });
    expect((await refused('subscription {', {})).payload[0].extensions).toEqual({ code: 'validation_error', details: { graphql_code: 'GRAPHQL_PARSE_FAILED' } });
  });

  it('refuses a subscription past 100 on one connection', async () => {
    const client = await WsClient.connect(url, key);
    for (let i = 0; i < 100; i++) client.subscribe(`s${i}`, WALLET_CHANGED, { id: mine.customers[0].id });
    await t.app.services.eventFeeds.whenSize((size) => size >= 100);
    client.subscribe('one-too-many', WALLET_CHANGED, { id: mine.customers[0].id });
    expect((await client.nextFor('one-too-many')).payload[0].extensions).toEqual({ code: 'validation_error', details: { limit: 'subscriptions', maximum: 100 } });
    client.complete('s0');
    await t.app.services.eventFeeds.whenSize((size) => size < 100);
    client.subscribe('room-again', WALLET_CHANGED, { id: mine.customers[0].id });
    await t.app.services.eventFeeds.whenSize((size) => size === 100);
    await client.close();
  });

  it('refuses unknown fields and variables that do not coerce', async () => {
    expect((await refused('subscription { nope }', {})).payload[0].extensions.code).toBe('validation_error');
    const message = await refused(WALLET_CHANGED, { id: { not: 'an id' } });
    expect(message).toMatchObject({ type: 'next', payload: { errors: [{ extensions: { code: 'validation_error' } }] } });
  });
});

describe('each transport serves its operations', () => {
  it('answers a subscription over HTTP with 400 validation_error naming the WebSocket', async () => {
    const res = await t.graphql(key, `subscription { walletChanged(walletId: "${mine.customers[0].id}") { id } }`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ message: expect.stringMatching(/WebSocket/), extensions: { code: 'validation_error' } });
  });

  it('refuses a query over the WebSocket, pointing to HTTP', async () => {
    const client = await WsClient.connect(url, key);
    client.subscribe('1', '{ plan { planCode } }');
    const message = await client.next();
    expect(message).toEqual({ id: '1', type: 'error', payload: [expect.objectContaining({ message: expect.stringMatching(/POST \/graphql/), extensions: { code: 'validation_error', details: { operation: 'query' } } })] });
    await client.close();
  });
});

describe('shutdown', () => {
  it('closes open subscription sockets with 1001 when the app closes', async () => {
    const other = await startTestApp({ databaseUrl: t.databaseUrl });
    const client = await WsClient.connect(wsUrl(other.baseUrl), key);
    client.subscribe('1', WALLET_CHANGED, { id: mine.customers[0].id });
    await other.close();
    expect((await client.closed).code).toBe(1001);
  });
});
