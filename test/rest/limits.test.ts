import { startTestApp, type TestApp } from '../support/test-app.js';
import { fundedProject, ISO_MS, UUID_RE as UUID, type FundedProject } from '../support/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const createLimit = (e: FundedProject, body: Record<string, unknown>) =>
  t.request('POST', '/limits', { key: e.key, body: { projectId: e.projectId, currency: e.symbol, windowSeconds: 3600, ...body } });
const send = (e: FundedProject, from: string, to: string, amount: number, query = '') =>
  t.request('POST', `/transactions${query}`, { key: e.key, body: { amount, currency: e.symbol, from, to, projectId: e.projectId } });
/** Customers a, b, c; only a is funded (100), so b and c have received nothing yet (credits count in the window). */
async function onlyFirstFunded(owner: string): Promise<FundedProject> {
  const e = await fundedProject(t, { owner: owner }, { customers: 3 });
  expect((await send(e, e.system.id, e.customers[0].id, 100)).status).toBe(201);
  return e;
}
const usage = async (e: FundedProject, walletId: string) => (await t.request('GET', `/wallets/${walletId}/limits`, { key: e.key })).body.limits;

describe('POST /limits', () => {
  let e: FundedProject;
  beforeAll(async () => {
    e = await fundedProject(t, { owner: 'limits-create' }, { customers: 1 });
  });

  it('creates a project-wide limit and a wallet limit', async () => {
    const wide = await createLimit(e, { direction: 'debit', amount: 12.5 });
    expect(wide.status).toBe(201);
    expect(wide.body.limit).toEqual({
      id: expect.stringMatching(UUID),
      projectId: e.projectId,
      walletId: null,
      currency: 'PTS',
      direction: 'debit',
      amount: 12.5,
      windowSeconds: 3600,
      created_at: expect.stringMatching(ISO_MS),
    });
    const own = await createLimit(e, { direction: 'credit', amount: 1, walletId: e.customers[0].address });
    expect(own.status).toBe(201);
    expect(own.body.limit.walletId).toBe(e.customers[0].id);
  });

  it.each([
    [{ direction: 'sideways', amount: 1 }, 'direction'],
    [{ direction: 'debit', amount: 0 }, 'amount'],
    [{ direction: 'debit', amount: 1.001 }, 'amount'],
    [{ direction: 'debit', amount: 1, windowSeconds: 59 }, 'windowSeconds'],
    [{ direction: 'debit', amount: 1, windowSeconds: 2_678_401 }, 'windowSeconds'],
    [{ direction: 'debit', amount: 1, windowSeconds: 60.5 }, 'windowSeconds'],
    [{ direction: 'debit', amount: 1, extra: true }, 'extra'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const res = await createLimit(e, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', details: { field } });
  });

  it('answers 404 for another owner’s project, an unknown currency or a wallet of no project of the caller', async () => {
    const other = await fundedProject(t, { owner: 'limits-create-other' }, { customers: 1, systemBalance: 0 });
    expect((await createLimit({ ...e, projectId: other.projectId }, { direction: 'debit', amount: 1 })).status).toBe(404);
    expect((await createLimit(e, { direction: 'debit', amount: 1, currency: 'NOPE' })).body.code).toBe('not_found');
    expect((await createLimit(e, { direction: 'debit', amount: 1, walletId: other.customers[0].id })).body.code).toBe('not_found');
  });

  it('allows 50 limits per project, then 403 quota_exceeded', async () => {
    const full = await fundedProject(t, { owner: 'limits-quota' }, { customers: 0, systemBalance: 0 });
    for (let i = 0; i < 50; i++) expect((await createLimit(full, { direction: 'credit', amount: i + 1 })).status).toBe(201);
    const over = await createLimit(full, { direction: 'debit', amount: 1 });
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({ code: 'quota_exceeded', details: { quota: 'limits', limit: 50 } });
  });
});

describe('GET /limits and DELETE /limits/{id}', () => {
  it('lists oldest first, filters by a wallet’s own limits, pages, and deletes', async () => {
    const e = await fundedProject(t, { owner: 'limits-list' }, { customers: 1 });
    const a = (await createLimit(e, { direction: 'debit', amount: 1 })).body.limit;
    const b = (await createLimit(e, { direction: 'credit', amount: 2, walletId: e.customers[0].id })).body.limit;
    const c = (await createLimit(e, { direction: 'debit', amount: 3, walletId: e.system.id })).body.limit;
    const all = await t.request('GET', `/limits?projectId=${e.projectId}`, { key: e.key });
    expect(all.body.limits.map((l: { id: string }) => l.id)).toEqual([a.id, b.id, c.id]);
    expect(all.body.pagination).toMatchObject({ total: 3, page: 1 });
    const own = await t.request('GET', `/limits?projectId=${e.projectId}&walletId=${e.customers[0].address}`, { key: e.key });
    expect(own.body.limits).toEqual([b]);
    const second = await t.request('GET', `/limits?projectId=${e.projectId}&limit=2&page=2`, { key: e.key });
    expect(second.body.limits).toEqual([c]);
    expect((await t.request('GET', '/limits', { key: e.key })).status).toBe(400);
    const gone = await t.request('DELETE', `/limits/${a.id}`, { key: e.key });
    expect(gone).toMatchObject({ status: 200, body: { id: a.id, deleted: true } });
    expect((await t.request('DELETE', `/limits/${a.id}`, { key: e.key })).status).toBe(404);
    const stranger = await fundedProject(t, { owner: 'limits-list-stranger' }, { customers: 0, systemBalance: 0 });
    expect((await t.request('DELETE', `/limits/${b.id}`, { key: stranger.key })).status).toBe(404);
    expect((await t.request('GET', `/limits?projectId=${e.projectId}`, { key: stranger.key })).status).toBe(404);
  });
});

describe('limit_exceeded on postings', () => {
  it('refuses a transfer past a debit limit with limitId and remaining, after wallet_inactive and insufficient_funds', async () => {
    const e = await fundedProject(t, { owner: 'limits-debit' }, { fund: 100 });
    const [a, b] = e.customers;
    const limit = (await createLimit(e, { direction: 'debit', amount: 10 })).body.limit;
    expect((await send(e, a.id, b.id, 6)).status).toBe(201);
    const refused = await send(e, a.id, b.id, 4.01);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ code: 'limit_exceeded', message: expect.any(String), details: { limitId: limit.id, remaining: 4 } });
    // funds first: more than the sender has is insufficient_funds, not limit_exceeded
    expect((await send(e, a.id, b.id, 1000)).body.code).toBe('insufficient_funds');
    await t.request('PUT', `/wallets/status/${b.id}`, { key: e.key, body: { projectId: e.projectId, status: 'suspended' } });
    expect((await send(e, a.id, b.id, 5)).body.code).toBe('wallet_inactive');
    await t.request('PUT', `/wallets/status/${b.id}`, { key: e.key, body: { projectId: e.projectId, status: 'active' } });
    expect((await send(e, a.id, b.id, 4)).status).toBe(201);
    expect(await usage(e, a.id)).toEqual([{ ...limit, used: 10, remaining: 0 }]);
    // the system wallet is a wallet of the project but not a customer: a project-wide limit does not bind it
    expect((await send(e, e.system.id, a.id, 50)).status).toBe(201);
    expect(await usage(e, e.system.id)).toEqual([]);
  });

  it('checks the receiver’s credit limits, a wallet’s own limits replacing the project’s', async () => {
    const e = await onlyFirstFunded('limits-credit');
    const [a, b, c] = e.customers;
    const wide = (await createLimit(e, { direction: 'credit', amount: 5 })).body.limit;
    const own = (await createLimit(e, { direction: 'credit', amount: 20, walletId: b.id })).body.limit;
    expect((await send(e, a.id, b.id, 15)).status).toBe(201); // b's own 20 applies, not the project's 5
    expect((await send(e, b.id, c.id, 6)).body).toMatchObject({ code: 'limit_exceeded', details: { limitId: wide.id, remaining: 5 } });
    expect((await send(e, a.id, b.id, 5.01)).body).toMatchObject({ code: 'limit_exceeded', details: { limitId: own.id, remaining: 5 } });
    expect(await usage(e, b.id)).toEqual([{ ...own, used: 15, remaining: 5 }]);
  });

  it('counts seeds against the seeded system wallet’s own credit limit', async () => {
    const e = await fundedProject(t, { owner: 'limits-seed' }, { customers: 0, systemBalance: 0 });
    const limit = (await createLimit(e, { direction: 'credit', amount: 100, walletId: e.system.id })).body.limit;
    const seed = (amount: number) => t.request('POST', '/transactions/seed', { key: e.key, body: { amount, currency: e.symbol, projectId: e.projectId, to: e.system.id } });
    expect((await seed(70)).status).toBe(201);
    expect((await seed(31)).body).toMatchObject({ code: 'limit_exceeded', details: { limitId: limit.id, remaining: 30 } });
  });

  it('counts reward flows like transfers', async () => {
    const e = await fundedProject(t, { owner: 'limits-flow' }, { customers: 1 });
    await createLimit(e, { direction: 'credit', amount: 3 });
    const reward = (amount: number) => t.request('POST', '/webhook', { key: e.key, body: { flowId: 'reward', projectId: e.projectId, values: { to: e.customers[0].id, amount } } });
    expect((await reward(2)).status).toBe(200);
    const refused = await reward(2);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'limit_exceeded', details: { remaining: 1 } });
  });

  it('neither counts nor checks reversals', async () => {
    const e = await onlyFirstFunded('limits-reversal');
    const [a, b] = e.customers;
    await createLimit(e, { direction: 'debit', amount: 10 });
    await createLimit(e, { direction: 'credit', amount: 10 });
    const posted = (await send(e, a.id, b.id, 10)).body.transaction;
    // a has received 100 in the window, past its credit limit of 10: the reversal to a is not checked
    const reversal = await t.request('POST', `/transactions/${posted.id}/reverse`, { key: e.key, body: { projectId: e.projectId } });
    expect(reversal.status).toBe(201);
    expect((await usage(e, b.id)).map((l: { direction: string; used: number }) => [l.direction, l.used])).toEqual([['debit', 0], ['credit', 10]]);
    expect((await usage(e, a.id)).map((l: { direction: string; used: number }) => [l.direction, l.used])).toEqual([['debit', 10], ['credit', 100]]);
  });

  it('counts batch legs cumulatively and names the refused leg', async () => {
    const e = await fundedProject(t, { owner: 'limits-batch' }, { fund: 100 });
    const [a, b] = e.customers;
    const limit = (await createLimit(e, { direction: 'debit', amount: 10 })).body.limit;
    const leg = (amount: number) => ({ amount, currency: e.symbol, from: a.id, to: b.id });
    const refused = await t.request('POST', '/transactions/batch', { key: e.key, body: { projectId: e.projectId, transfers: [leg(4), leg(4), leg(4)] } });
    expect(refused.status).toBe(409);
    expect(refused.body.details).toEqual({ index: 2, limitId: limit.id, remaining: 2 });
    expect((await usage(e, a.id))[0].used).toBe(0);
    const posted = await t.request('POST', '/transactions/batch', { key: e.key, body: { projectId: e.projectId, transfers: [leg(4), leg(6)] } });
    expect(posted.status).toBe(201);
    expect((await usage(e, a.id))[0]).toMatchObject({ used: 10, remaining: 0 });
  });
});

describe('limits and holds', () => {
  const hold = (e: FundedProject, from: string, to: string, amount: number, query = '') =>
    t.request('POST', `/holds${query}`, { key: e.key, body: { amount, currency: e.symbol, from, to, projectId: e.projectId } });

  it('counts a pending hold at creation; void frees it; capture is not checked again against the sender while its window holds the hold', async () => {
    const e = await fundedProject(t, { owner: 'limits-holds' }, { fund: 100 });
    const [a, b] = e.customers;
    const limit = (await createLimit(e, { direction: 'debit', amount: 10 })).body.limit;
    const first = (await hold(e, a.id, b.id, 6)).body.hold;
    expect((await usage(e, a.id))[0]).toMatchObject({ used: 6, remaining: 4 });
    expect((await hold(e, a.id, b.id, 5)).body).toMatchObject({ code: 'limit_exceeded', details: { limitId: limit.id, remaining: 4 } });
    expect((await send(e, a.id, b.id, 5)).body.code).toBe('limit_exceeded');
    await t.request('POST', `/holds/${first.id}/void`, { key: e.key, body: { projectId: e.projectId } });
    expect((await usage(e, a.id))[0]).toMatchObject({ used: 0, remaining: 10 });
    const second = (await hold(e, a.id, b.id, 10)).body.hold;
    const captured = await t.request('POST', `/holds/${second.id}/capture`, { key: e.key, body: { projectId: e.projectId, amount: 7 } });
    expect(captured.status).toBe(201);
    // the capture counts (7), the hold no longer does
    expect((await usage(e, a.id))[0]).toMatchObject({ used: 7, remaining: 3 });
  });

  it('checks a capture against the sender’s debit limits whose window no longer contains the hold’s creation (a new movement there)', async () => {
    const e = await fundedProject(t, { owner: 'limits-aged-hold' }, { fund: 100 });
    const [a, b] = e.customers;
    const short = (await createLimit(e, { direction: 'debit', amount: 10, windowSeconds: 60 })).body.limit;
    const long = (await createLimit(e, { direction: 'debit', amount: 30, windowSeconds: 3600 })).body.limit;
    const held = (await hold(e, a.id, b.id, 8)).body.hold;
    // two minutes pass for this project: the hold has left the 60 s window (it no longer counts there), not the hour's
    await t.db.query(`UPDATE holds SET created_at = created_at - interval '120 seconds', updated_at = updated_at - interval '120 seconds' WHERE project_id = $1`, [e.projectId]);
    await t.db.query(`UPDATE transactions SET created_at = created_at - interval '120 seconds' WHERE project_id = $1`, [e.projectId]);
    expect(await usage(e, a.id)).toMatchObject([{ id: short.id, used: 0 }, { id: long.id, used: 8 }]);
    expect((await send(e, a.id, b.id, 5)).status).toBe(201);
    const refused = await t.request('POST', `/holds/${held.id}/capture`, { key: e.key, body: { projectId: e.projectId } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'limit_exceeded', details: { limitId: short.id, remaining: 5 } });
    expect((await t.request('GET', `/holds/${held.id}`, { key: e.key })).body.hold.status).toBe('pending');
    expect(await usage(e, a.id)).toMatchObject([{ id: short.id, used: 5 }, { id: long.id, used: 13 }]);
    // a capture within what the short window has left posts; the hour's window counted the hold already
    const captured = await t.request('POST', `/holds/${held.id}/capture`, { key: e.key, body: { projectId: e.projectId, amount: 5 } });
    expect(captured.status).toBe(201);
    expect(await usage(e, a.id)).toMatchObject([{ id: short.id, used: 10, remaining: 0 }, { id: long.id, used: 10, remaining: 20 }]);
  });

  it('checks a capture against the receiver’s credit limits; refused, the hold stays pending', async () => {
    const e = await onlyFirstFunded('limits-capture');
    const [a, b] = e.customers;
    const held = (await hold(e, a.id, b.id, 8)).body.hold; // credit limits are not checked at creation
    const limit = (await createLimit(e, { direction: 'credit', amount: 5, walletId: b.id })).body.limit;
    const refused = await t.request('POST', `/holds/${held.id}/capture`, { key: e.key, body: { projectId: e.projectId } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'limit_exceeded', details: { limitId: limit.id, remaining: 5 } });
    expect((await t.request('GET', `/holds/${held.id}`, { key: e.key })).body.hold.status).toBe('pending');
    expect((await t.request('POST', `/holds/${held.id}/capture`, { key: e.key, body: { projectId: e.projectId, amount: 5 } })).status).toBe(201);
  });

  it('dry runs check limits and leave no usage', async () => {
    const e = await fundedProject(t, { owner: 'limits-dry' }, { fund: 100 });
    const [a, b] = e.customers;
    const limit = (await createLimit(e, { direction: 'debit', amount: 10 })).body.limit;
    const dry = await send(e, a.id, b.id, 10, '?dryRun=true');
    expect(dry).toMatchObject({ status: 200, body: { dryRun: true } });
    expect((await hold(e, a.id, b.id, 10, '?dryRun=true')).status).toBe(200);
    expect((await usage(e, a.id))[0]).toMatchObject({ used: 0, remaining: 10 });
    expect((await send(e, a.id, b.id, 6)).status).toBe(201);
    const refused = await send(e, a.id, b.id, 5, '?dryRun=true');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'limit_exceeded', details: { limitId: limit.id, remaining: 4 } });
    expect((await hold(e, a.id, b.id, 5, '?dryRun=true')).body.code).toBe('limit_exceeded');
    expect((await usage(e, a.id))[0]).toMatchObject({ used: 6, remaining: 4 });
  });
});

describe('GET /wallets/{id}/limits', () => {
  it('answers 404 for another owner’s wallet and 400 for a malformed id', async () => {
    const e = await fundedProject(t, { owner: 'limits-usage' }, { customers: 1, systemBalance: 0 });
    const stranger = await fundedProject(t, { owner: 'limits-usage-stranger' }, { customers: 0, systemBalance: 0 });
    expect((await t.request('GET', `/wallets/${e.customers[0].id}/limits`, { key: stranger.key })).status).toBe(404);
    expect((await t.request('GET', '/wallets/nope/limits', { key: e.key })).status).toBe(400);
  });
});
