import { expectStatus, fundedProject, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { WsClient, wsUrl } from '../support/ws-client.js';

/**
 * Pending credits over GraphQL (CONTRACT §26 clarification): createHold(matureIn, matureAt),
 * Hold.maturesAt, Balance.incoming (through the resolvers and through the SQL plans), and
 * ledgerEvents taking `hold.maturity_refused` and the matured `hold.captured`.
 */
let planned: TestApp;
let resolved: TestApp;
let p: FundedProject;
beforeAll(async () => {
  planned = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 500 } });
  resolved = await startTestApp({ databaseUrl: planned.databaseUrl, graphqlSqlPlans: false, lotSweep: { intervalMs: 0, batchSize: 500 } });
  p = await fundedProject(planned, { owner: 'gql-pending' }, { systemBalance: 1000 });
});
afterAll(async () => {
  await resolved?.close();
  await planned?.close();
});

const CREATE = `mutation($p: ID!, $to: String!, $from: String!, $matureIn: Int, $matureAt: DateTime, $expiresIn: Int) {
  createHold(projectId: $p, currency: "PTS", from: $from, to: $to, amount: "2.5", matureIn: $matureIn, matureAt: $matureAt, expiresIn: $expiresIn) { id status expiresAt maturesAt createdAt } }`;
const gql = async (t: TestApp, query: string, variables: Record<string, unknown> = {}) => (await t.graphql(p.key, query, variables)).body;
const vars = (extra: Record<string, unknown>) => ({ p: String(p.projectId), from: p.system.id, to: p.customers[0].id, ...extra });

describe('createHold with matureIn / matureAt', () => {
  it('answers maturesAt (createdAt + matureIn, or matureAt) and expiresAt null', async () => {
    const byDelay = await gql(planned, CREATE, vars({ matureIn: 120 }));
    expect(byDelay.errors).toBeUndefined();
    const hold = byDelay.data.createHold;
    expect(hold).toMatchObject({ status: 'PENDING', expiresAt: null });
    expect(Date.parse(hold.maturesAt) - Date.parse(hold.createdAt)).toBe(120_000);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const byInstant = await gql(planned, CREATE, vars({ matureAt: at }));
    expect(byInstant.data.createHold.maturesAt).toBe(at);
    const read = await gql(planned, `query($id: ID!) { hold(id: $id) { maturesAt } }`, { id: hold.id });
    expect(read.data.hold.maturesAt).toBe(hold.maturesAt);
    for (const id of [hold.id, byInstant.data.createHold.id]) await gql(planned, `mutation($id: ID!, $p: ID!) { voidHold(id: $id, projectId: $p) { status } }`, { id, p: String(p.projectId) });
  });

  it.each([
    ['matureIn and matureAt', { matureIn: 60, matureAt: new Date(Date.now() + 3_600_000).toISOString() }],
    ['expiresIn and matureIn', { expiresIn: 60, matureIn: 60 }],
    ['matureIn 59', { matureIn: 59 }],
    ['matureAt 10 s ahead', { matureAt: new Date(Date.now() + 10_000).toISOString() }],
  ])('%s: validation_error, nothing created', async (_name, extra) => {
    const res = await gql(planned, CREATE, vars(extra));
    expect(res.errors[0].extensions.code).toBe('validation_error');
    expect(res.data?.createHold ?? null).toBeNull();
  });
});

describe('Balance.incoming', () => {
  it.each([
    ['planned', () => planned],
    ['resolved', () => resolved],
  ])('sums the pending holds to the wallet (%s); null with asOf', async (_how, app) => {
    const [, c] = p.customers;
    const held = await gql(planned, CREATE, { ...vars({ matureIn: 600 }), to: c.id });
    const query = `query($id: ID!) { wallet(id: $id) { balances { currency balance held available incoming } } }`;
    expect((await gql(app(), query, { id: c.id })).data.wallet.balances).toEqual([{ currency: 'PTS', balance: '0', held: '0', available: '0', incoming: '2.5' }]);
    const asOf = new Date().toISOString();
    const past = await gql(app(), `query($id: ID!, $asOf: DateTime) { wallet(id: $id) { balances(asOf: $asOf) { balance incoming } } }`, { id: c.id, asOf });
    expect(past.data.wallet.balances).toEqual([{ balance: '0', incoming: null }]);
    await gql(planned, `mutation($id: ID!, $p: ID!) { voidHold(id: $id, projectId: $p) { status } }`, { id: held.data.createHold.id, p: String(p.projectId) });
    expect((await gql(app(), query, { id: c.id })).data.wallet.balances[0].incoming).toBe('0');
  });
});

describe('ledgerEvents', () => {
  it('delivers a refused maturity and the matured capture to a subscription filtered on them', async () => {
    const client = await WsClient.connect(wsUrl(planned.baseUrl), p.key);
    try {
      const open = planned.app.services.eventFeeds.size;
      client.subscribe('m', 'subscription($projectId: ID!, $types: [String!]) { ledgerEvents(projectId: $projectId, types: $types) { type data } }', {
        projectId: String(p.projectId),
        types: ['hold.maturity_refused', 'hold.captured'],
      });
      await planned.app.services.eventFeeds.whenSize((size) => size > open);
      const [c] = p.customers;
      const hold = (await gql(planned, CREATE, vars({ matureIn: 60 }))).data.createHold;
      await expectStatus(planned.request('PUT', `/wallets/status/${c.id}`, { key: p.key, body: { projectId: p.projectId, status: 'suspended' } }), 200);
      await planned.db.query(`UPDATE holds SET matures_at = clock_timestamp(), maturity_due_at = clock_timestamp() WHERE id = $1`, [hold.id]);
      await planned.app.services.expirySweeper.sweepOnce();
      await expectStatus(planned.request('PUT', `/wallets/status/${c.id}`, { key: p.key, body: { projectId: p.projectId, status: 'active' } }), 200);
      await planned.db.query(`UPDATE holds SET maturity_due_at = clock_timestamp() WHERE id = $1`, [hold.id]);
      await planned.app.services.expirySweeper.sweepOnce();
      const [refused, captured] = (await client.take('m', 2)).map((m) => m.data.ledgerEvents);
      expect(refused).toEqual({ type: 'hold.maturity_refused', data: { hold: expect.objectContaining({ id: hold.id, status: 'pending' }), code: 'wallet_inactive' } });
      expect(captured).toMatchObject({ type: 'hold.captured', data: { id: hold.id, status: 'captured', matured: true } });
    } finally {
      client.close();
    }
  });
});
