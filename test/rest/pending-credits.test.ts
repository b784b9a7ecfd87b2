import { expectStatus, fundedProject, ISO_MS, type FundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Pending credits over REST (CONTRACT §26 and its clarification): the maturity fields of POST /holds, `matures_at`, `incoming`. */
let t: TestApp;
let p: FundedProject;
beforeAll(async () => {
  t = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 500 } });
  p = await fundedProject(t, { owner: 'rest-pending' }, { systemBalance: 1000 });
});
afterAll(() => t?.close());

const create = (body: Record<string, unknown>) =>
  t.request('POST', '/holds', { key: p.key, body: { amount: 10, currency: p.symbol, projectId: p.projectId, from: p.system.id, to: p.customers[0].id, ...body } });
const ahead = (ms: number) => new Date(Date.now() + ms).toISOString();

describe('POST /holds with matureIn / matureAt', () => {
  it('matureIn: matures_at = created_at + matureIn, expires_at null', async () => {
    const { hold } = await expectStatus(create({ matureIn: 60 }), 201);
    expect(hold).toMatchObject({ status: 'pending', expires_at: null, matures_at: expect.stringMatching(ISO_MS) });
    expect(Date.parse(hold.matures_at) - Date.parse(hold.created_at)).toBe(60_000);
    expect((await expectStatus(t.request('GET', `/holds/${hold.id}`, { key: p.key }), 200)).hold.matures_at).toBe(hold.matures_at);
    await expectStatus(t.request('POST', `/holds/${hold.id}/void`, { key: p.key, body: { projectId: p.projectId } }), 200);
  });

  it('matureAt: matures_at is that instant, in any offset, to the millisecond', async () => {
    const at = new Date(Math.floor((Date.now() + 3_600_000) / 1000) * 1000 + 123);
    const local = at.toISOString().replace('Z', '+00:00');
    const { hold } = await expectStatus(create({ matureAt: local }), 201);
    expect(hold.matures_at).toBe(at.toISOString());
    await expectStatus(t.request('POST', `/holds/${hold.id}/void`, { key: p.key, body: { projectId: p.projectId } }), 200);
  });

  it.each([
    ['matureIn and matureAt together', { matureIn: 60, matureAt: ahead(120_000) }, 'matureAt'],
    ['expiresIn and matureIn', { expiresIn: 60, matureIn: 60 }, 'matureIn'],
    ['expiresIn and matureAt', { expiresIn: 60, matureAt: ahead(120_000) }, 'matureAt'],
    ['matureIn below 60', { matureIn: 59 }, 'matureIn'],
    ['matureIn above a year', { matureIn: 31_536_001 }, 'matureIn'],
    ['matureIn not an integer', { matureIn: 60.5 }, 'matureIn'],
    ['matureIn a string', { matureIn: '60' }, 'matureIn'],
    ['matureAt less than 60 s ahead', { matureAt: ahead(30_000) }, 'matureAt'],
    ['matureAt in the past', { matureAt: '2020-01-01T00:00:00Z' }, 'matureAt'],
    ['matureAt without an offset', { matureAt: '2099-01-01T00:00:00' }, 'matureAt'],
    ['matureAt not a date', { matureAt: 'tomorrow' }, 'matureAt'],
    ['matureAt a number', { matureAt: 1_900_000_000 }, 'matureAt'],
  ])('%s: 400 validation_error naming the field, nothing held', async (_name, body, field) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', message: expect.any(String), details: expect.objectContaining({ field }) });
    const { balance } = await expectStatus(t.request('GET', `/transactions?walletId=${p.system.id}`, { key: p.key }), 200);
    expect(balance.held).toBe(0);
  });

  it('the boundaries are accepted: matureIn 60 and 31,536,000', async () => {
    for (const matureIn of [60, 31_536_000]) {
      const { hold } = await expectStatus(create({ matureIn }), 201);
      await expectStatus(t.request('POST', `/holds/${hold.id}/void`, { key: p.key, body: { projectId: p.projectId } }), 200);
    }
  });
});

describe('incoming on balance entries', () => {
  it('sums the pending holds to the wallet, maturing or not, on GET /wallets/{id} and GET /transactions; omitted with asOf', async () => {
    const [, c] = p.customers;
    const maturing = await expectStatus(create({ amount: 3.25, to: c.id, matureIn: 600 }), 201);
    const plain = await expectStatus(create({ amount: 1.5, to: c.id }), 201);
    const expiring = await expectStatus(create({ amount: 2, to: c.id, expiresIn: 600 }), 201);
    const entry = { account: c.address, currency: p.symbol, balance: 0, held: 0, available: 0, creditLimit: 0, incoming: 6.75 };
    expect((await expectStatus(t.request('GET', `/wallets/${c.id}`, { key: p.key }), 200)).balance).toEqual([entry]);
    expect((await expectStatus(t.request('GET', `/transactions?walletId=${c.id}`, { key: p.key }), 200)).balance).toEqual(entry);
    // an expired hold no longer counts, from the instant, whatever the sweeper has done
    await t.db.query(`UPDATE holds SET expires_at = clock_timestamp() - interval '1 second' WHERE id = $1`, [expiring.hold.id]);
    expect((await expectStatus(t.request('GET', `/transactions?walletId=${c.id}`, { key: p.key }), 200)).balance.incoming).toBe(4.75);
    const asOf = new Date().toISOString();
    const past = await expectStatus(t.request('GET', `/wallets/${c.id}?asOf=${asOf}`, { key: p.key }), 200);
    expect(past.balance).toEqual([{ account: c.address, currency: p.symbol, balance: 0 }]);
    const history = await expectStatus(t.request('GET', `/transactions?walletId=${c.id}&asOf=${asOf}`, { key: p.key }), 200);
    expect(history.balance).not.toHaveProperty('incoming');
    for (const h of [maturing, plain]) await expectStatus(t.request('POST', `/holds/${h.hold.id}/void`, { key: p.key, body: { projectId: p.projectId } }), 200);
    expect((await expectStatus(t.request('GET', `/transactions?walletId=${c.id}`, { key: p.key }), 200)).balance.incoming).toBe(0);
  });
});

describe('hold.maturity_refused as an event type', () => {
  it('webhook endpoints take it in `types`', async () => {
    const res = await t.request('POST', '/webhook-endpoints', { key: p.key, body: { projectId: p.projectId, url: 'https://93.184.215.14/hook', types: ['hold.maturity_refused', 'hold.captured'] } });
    expect(res.status).toBe(201);
    expect(res.body.types).toEqual(['hold.captured', 'hold.maturity_refused']);
  });
});
