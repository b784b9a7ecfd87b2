import { ISO_MS, UNKNOWN_UUID, expectStatus, fundedProject, transfer, type FundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Points that expire over REST (CONTRACT §15): the asset's expiresAfterSeconds, GET /wallets/{id}/lots, expiry transactions. */
let t: TestApp;
let key: string;
let otherKey: string;
beforeAll(async () => {
  t = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 500 } });
  key = await t.issueKey('lots-owner', 'enterprise');
  otherKey = await t.issueKey('lots-intruder', 'pro');
});
afterAll(() => t.close());

const setExpiry = (f: FundedProject, body: Record<string, unknown>) => t.request('PUT', `/assets/${f.assetId}`, { key: f.key, body });
const lotsOf = (walletId: string, query = '', k = key) => t.request('GET', `/wallets/${walletId}/lots${query}`, { key: k });
/** What the passing of time does to a lot (see test/domain/lots/lots.test.ts). */
const makeDue = (walletId: string) =>
  t.db.query(`UPDATE lots SET expires_at = clock_timestamp()::timestamptz(3) WHERE id = (SELECT min(id) FROM lots WHERE wallet_id = $1 AND remaining > 0)`, [walletId]);

async function expiring(seconds: number | null = 3600, customers = 2): Promise<FundedProject> {
  const f = await fundedProject(t, key, { customers, systemBalance: '1000' });
  await expectStatus(setExpiry(f, { expiresAfterSeconds: seconds }), 200);
  return f;
}

describe('expiresAfterSeconds on assets', () => {
  it('is null by default, accepted on create, and answered by GET', async () => {
    const project = await expectStatus(t.request('POST', '/projects', { key, body: { name: 'expiry assets' } }), 201);
    const plain = await expectStatus(t.request('POST', '/assets', { key, body: { name: 'Plain', symbol: 'PLAIN', fractions: 0, projectId: project.id } }), 201);
    expect(plain.expiresAfterSeconds).toBeNull();
    const points = await expectStatus(
      t.request('POST', '/assets', { key, body: { name: 'Points', symbol: 'PTS', fractions: 2, projectId: project.id, expiresAfterSeconds: 86400 } }),
      201,
    );
    expect(points.expiresAfterSeconds).toBe(86400);
    expect((await expectStatus(t.request('GET', `/assets/${points.id}`, { key }), 200)).expiresAfterSeconds).toBe(86400);
    const nulled = await expectStatus(t.request('POST', '/assets', { key, body: { name: 'N', symbol: 'NUL', fractions: 0, projectId: project.id, expiresAfterSeconds: null } }), 201);
    expect(nulled.expiresAfterSeconds).toBeNull();
  });

  it('PUT accepts expiresAfterSeconds alone (with or without projectId), and null turns expiry off', async () => {
    const f = await fundedProject(t, key, { customers: 0, systemBalance: '0' });
    const set = await expectStatus(setExpiry(f, { expiresAfterSeconds: 1 }), 200);
    expect(set).toMatchObject({ id: f.assetId, expiresAfterSeconds: 1, symbol: f.symbol });
    expect((await expectStatus(setExpiry(f, { expiresAfterSeconds: 315360000, projectId: f.projectId }), 200)).expiresAfterSeconds).toBe(315360000);
    expect((await expectStatus(setExpiry(f, { name: 'renamed' }), 200)).expiresAfterSeconds).toBe(315360000); // unchanged when absent
    expect((await expectStatus(setExpiry(f, { expiresAfterSeconds: null }), 200)).expiresAfterSeconds).toBeNull();
    // a change of expiry is allowed on an asset with transactions (unlike its symbol)
    const g = await fundedProject(t, key, { customers: 1 });
    await transfer(t, g, g.system.id, g.customers[0].id, 1);
    expect((await setExpiry(g, { expiresAfterSeconds: 60 })).status).toBe(200);
  });

  it.each([
    ['zero', 0],
    ['negative', -5],
    ['over ten years', 315360001],
    ['fractional', 1.5],
    ['a string', '60'],
    ['a boolean', true],
  ])('refuses %s with 400 on POST and PUT', async (_case, value) => {
    const f = await fundedProject(t, key, { customers: 0, systemBalance: '0' });
    const put = await setExpiry(f, { expiresAfterSeconds: value });
    expect(put.status).toBe(400);
    expect(put.body.details.field).toBe('expiresAfterSeconds');
    const post = await t.request('POST', '/assets', { key, body: { name: 'X', symbol: 'XX', fractions: 0, projectId: f.projectId, expiresAfterSeconds: value } });
    expect(post.status).toBe(400);
    expect(post.body.details.field).toBe('expiresAfterSeconds');
  });

  it("another owner's asset is 404 without projectId too", async () => {
    const f = await fundedProject(t, key, { customers: 0, systemBalance: '0' });
    expect((await t.request('PUT', `/assets/${f.assetId}`, { key: otherKey, body: { expiresAfterSeconds: 5 } })).status).toBe(404);
    expect((await expectStatus(t.request('GET', `/assets/${f.assetId}`, { key }), 200)).expiresAfterSeconds).toBeNull();
  });
});

describe('GET /wallets/{id}/lots', () => {
  it('lists unexpired lots with something left, earliest expiry first, in major units', async () => {
    const f = await expiring(3600);
    const [customer, other] = f.customers;
    await transfer(t, f, f.system.id, customer.id, 12.5);
    await expectStatus(setExpiry(f, { expiresAfterSeconds: 60 }), 200);
    const second = await transfer(t, f, f.system.id, customer.id, 3);
    await transfer(t, f, customer.id, other.id, 1.25); // consumes from the 60 s lot first
    const res = await lotsOf(customer.id);
    expect(res.status).toBe(200);
    expect(res.body.lots).toEqual([
      { amount: 3, remaining: 1.75, expires_at: expect.stringMatching(ISO_MS), created_at: second.transaction.date },
      { amount: 12.5, remaining: 12.5, expires_at: expect.stringMatching(ISO_MS), created_at: expect.stringMatching(ISO_MS) },
    ]);
    expect(Date.parse(res.body.lots[0].expires_at) - Date.parse(second.transaction.date)).toBe(60_000);
    // a spent lot is not listed
    await transfer(t, f, customer.id, other.id, 1.75);
    expect((await lotsOf(customer.id)).body.lots.map((l: { amount: number }) => l.amount)).toEqual([12.5]);
  });

  it('does not list a lot whose expires_at has passed, before its expiry is posted', async () => {
    const f = await expiring();
    const [customer] = f.customers;
    await transfer(t, f, f.system.id, customer.id, 4);
    await makeDue(customer.id);
    expect((await lotsOf(customer.id)).body).toEqual({ lots: [] });
    // not posted yet: the balance is still the posted balance
    const wallet = await expectStatus(t.request('GET', `/wallets/${customer.id}`, { key }), 200);
    expect(wallet.balance[0].balance).toBe(4);
  });

  it('takes currency (default: the primary asset); a system wallet has none', async () => {
    const f = await expiring();
    const [customer] = f.customers;
    await expectStatus(t.request('POST', '/assets', { key, body: { name: 'Other', symbol: 'OTH', fractions: 0, projectId: f.projectId, expiresAfterSeconds: 30 } }), 201);
    await expectStatus(t.request('POST', '/transactions/seed', { key, body: { amount: 10, currency: 'OTH', projectId: f.projectId, to: f.system.id } }), 201);
    await transfer(t, f, f.system.id, customer.id, 2, 'OTH');
    expect((await lotsOf(customer.id)).body).toEqual({ lots: [] });
    expect((await lotsOf(customer.id, '?currency=OTH')).body.lots).toEqual([expect.objectContaining({ amount: 2, remaining: 2 })]);
    expect((await lotsOf(f.system.id)).status).toBe(200);
    expect((await lotsOf(f.system.id)).body).toEqual({ lots: [] });
  });

  it('answers 404 for an unknown or foreign wallet and an unknown currency, 400 for bad input, 401 without a key', async () => {
    const f = await expiring();
    const [customer] = f.customers;
    expect((await lotsOf(UNKNOWN_UUID)).status).toBe(404);
    expect((await lotsOf(customer.id, '', otherKey)).status).toBe(404);
    expect((await lotsOf(customer.id, '?currency=NOPE')).status).toBe(404);
    const bad = await lotsOf('not-a-uuid');
    expect(bad.status).toBe(400);
    expect((await lotsOf(customer.id, '?limit=5')).status).toBe(400);
    expect((await lotsOf(customer.id, `?currency=${'X'.repeat(65)}`)).status).toBe(400);
    expect((await t.request('GET', `/wallets/${customer.id}/lots`)).status).toBe(401);
  });
});

describe('expiry transactions over REST', () => {
  it('go to @expired, dated the expiry, with the customer balance after them, and keep the history chain', async () => {
    const f = await expiring();
    const [customer, other] = f.customers;
    await transfer(t, f, f.system.id, customer.id, 10);
    await makeDue(customer.id);
    const [{ expires_at }] = await t.db.query<{ expires_at: Date }>(`SELECT expires_at FROM lots WHERE wallet_id = $1`, [customer.id]);
    const refused = await t.request('POST', '/transactions', { key, body: { amount: 1, currency: f.symbol, from: customer.id, to: other.id, projectId: f.projectId } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('insufficient_funds');
    await transfer(t, f, f.system.id, customer.id, 2);
    const history = await expectStatus(t.request('GET', `/transactions?walletId=${customer.id}`, { key }), 200);
    expect(history.pagination.total).toBe(3);
    expect(history.balance.balance).toBe(2);
    expect(history.transactions.map((tx: any) => [tx.from, tx.to, tx.amount, tx.balance])).toEqual([
      [f.system.address, customer.address, 2, 2],
      [customer.address, '@expired', 10, 0],
      [f.system.address, customer.address, 10, 10],
    ]);
    expect(history.transactions[1].date).toBe(expires_at.toISOString());
    const wallet = await expectStatus(t.request('GET', `/wallets/${customer.id}`, { key }), 200);
    expect(wallet.transactions[1]).toMatchObject({ to: '@expired', amount: 10, balance: 0 });
  });

  it('cannot be reversed (409 conflict)', async () => {
    const f = await expiring();
    const [customer] = f.customers;
    await transfer(t, f, f.system.id, customer.id, 3);
    await makeDue(customer.id);
    await transfer(t, f, f.system.id, customer.id, 1); // posts the expiry first
    const [{ id }] = await t.db.query<{ id: string }>(`SELECT id FROM transactions WHERE from_wallet_id = $1 AND kind = 'expiry'`, [customer.id]);
    const res = await t.request('POST', `/transactions/${id}/reverse`, { key, body: { projectId: f.projectId } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
  });

  it('a reversal credited back to a customer creates a lot, and a reversal out of a customer consumes its lots', async () => {
    const f = await expiring(3600);
    const [a, b] = f.customers;
    const sent = await transfer(t, f, f.system.id, a.id, 5);
    const back = await expectStatus(t.request('POST', `/transactions/${sent.transaction.id}/reverse`, { key, body: { projectId: f.projectId, amount: 2 } }), 201);
    expect(back.transaction.balance).toBe(3);
    expect((await lotsOf(a.id)).body.lots.map((l: any) => l.remaining)).toEqual([3]);
    const paid = await transfer(t, f, a.id, b.id, 3);
    const returned = await expectStatus(t.request('POST', `/transactions/${paid.transaction.id}/reverse`, { key, body: { projectId: f.projectId } }), 201);
    expect(returned.transaction.to).toBe(a.address);
    expect((await lotsOf(b.id)).body.lots).toEqual([]);
    expect((await lotsOf(a.id)).body.lots.map((l: any) => [l.amount, l.remaining])).toEqual([[3, 3]]);
  });
});
