import { startTestApp, type TestApp } from '../support/test-app.js';
import { fundedProject, type FundedProject } from '../support/fixtures.js';

/** GET /transactions/search (CONTRACT §21): every filter, paging while postings go on, refusals, tenancy. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 500 } });
});
afterAll(() => t.close());

async function posted(e: FundedProject, path: string, body: Record<string, unknown>): Promise<any> {
  const res = await t.request('POST', path, { key: e.key, body: { projectId: e.projectId, ...body } });
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.transaction;
}
const transfer = (e: FundedProject, body: Record<string, unknown>) => posted(e, '/transactions', { currency: e.symbol, ...body });
const search = (e: FundedProject, query: string, key = e.key) => t.request('GET', `/transactions/search?projectId=${e.projectId}${query ? `&${query}` : ''}`, { key });
async function found(e: FundedProject, query: string): Promise<any[]> {
  const res = await search(e, query);
  if (res.status !== 200) throw new Error(`search ${query}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.transactions;
}
const ids = (rows: any[]) => rows.map((row) => row.id);

describe('GET /transactions/search: filters', () => {
  let e: FundedProject;
  let seed: any;
  let a2b: any;
  let b2a: any;
  let tagged: any;
  let flagged: any;
  let reversal: any;
  let second: any;
  beforeAll(async () => {
    e = await fundedProject(t, { owner: 'search-filters' }, { customers: 3, fund: 0, systemBalance: 0 });
    const [a, b] = e.customers;
    seed = (await posted(e, '/transactions/seed', { amount: 1000, currency: e.symbol, to: e.system.id }))[0];
    await transfer(e, { amount: 100, from: e.system.id, to: a.id, reference: 'fund_a' });
    await transfer(e, { amount: 100, from: e.system.id, to: b.id, reference: 'fundXa' });
    a2b = await transfer(e, { amount: 12.5, from: a.id, to: b.id, reference: 'order:1', metadata: { order: 'A-1', count: 5 } });
    b2a = await transfer(e, { amount: 0.01, from: b.address, to: a.address, reference: 'order:2', metadata: { order: 'A-2', count: '5' } });
    tagged = await transfer(e, { amount: 3, from: a.id, to: b.id, reference: 'order#3', metadata: { vip: true, note: 'quote " comma , é' } });
    flagged = await transfer(e, { amount: 4, from: b.id, to: a.id, metadata: { vip: 'true' } });
    reversal = await posted(e, `/transactions/${a2b.id}/reverse`, { amount: 2 });
    // a second currency
    await t.request('POST', '/assets', { key: e.key, body: { name: 'Gold', symbol: 'GLD', fractions: 0, projectId: e.projectId } });
    second = (await posted(e, '/transactions/seed', { amount: 7, currency: 'GLD', to: e.system.id }))[0];
  });

  it('without filters: every transaction of the project, every currency, newest first, the sender\'s balance (a seed\'s the seeded wallet\'s)', async () => {
    const rows = await found(e, 'limit=100');
    expect(rows).toHaveLength(9);
    expect(rows[0]).toEqual(second);
    expect(rows.at(-1)).toEqual(seed);
    expect(rows[2]).toEqual(flagged);
    const dates = rows.map((row) => row.date);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('walletId (id or address) matches either side, and its balance is that wallet\'s', async () => {
    const [a] = e.customers;
    const byId = await found(e, `walletId=${a.id}&limit=100`);
    expect(ids(byId)).toEqual([reversal.id, flagged.id, tagged.id, b2a.id, a2b.id, expect.any(String)]);
    expect(ids(await found(e, `walletId=${a.address}&limit=100`))).toEqual(ids(byId));
    // a received it: a's balance after the reversal, not the sender's
    expect(byId[0].balance).toBe(100 - 12.5 + 2 + 0.01 - 3 + 4);
    expect(byId.find((row) => row.id === b2a.id).balance).toBe(100 - 12.5 + 0.01);
  });

  it('from and to (addresses or ids); from=@mint lists seeds', async () => {
    const [a, b] = e.customers;
    expect(ids(await found(e, `from=${a.address}`))).toEqual([tagged.id, a2b.id]);
    expect(ids(await found(e, `to=${a.address}&from=${b.id}`))).toEqual([reversal.id, flagged.id, b2a.id]);
    expect(ids(await found(e, 'from=@mint'))).toEqual([second.id, seed.id]);
  });

  it('currency, minAmount and maxAmount (inclusive, major units)', async () => {
    expect(ids(await found(e, 'currency=GLD'))).toEqual([second.id]);
    expect(ids(await found(e, `currency=${e.symbol}&minAmount=3&maxAmount=12.5`))).toEqual([flagged.id, tagged.id, a2b.id]);
    expect(ids(await found(e, 'maxAmount=0.01'))).toEqual([b2a.id]);
    // without currency each row's own asset decides: 7 GLD ≥ 5, and so are 12.5, 100, 100, 1000 PTS
    expect(ids(await found(e, 'minAmount=7&maxAmount=12.5'))).toEqual([second.id, a2b.id]);
  });

  it('since ≤ date < until', async () => {
    const rows = await found(e, `since=${encodeURIComponent(b2a.date)}&until=${encodeURIComponent(reversal.date)}&limit=100`);
    expect(rows.every((row) => row.date >= b2a.date && row.date < reversal.date)).toBe(true);
    expect(ids(rows)).toContain(b2a.id);
    expect(ids(rows)).not.toContain(reversal.id);
  });

  it('reference (exact), referencePrefix with % and _ taken literally, reverses', async () => {
    expect(ids(await found(e, 'reference=order:1'))).toEqual([a2b.id]);
    expect(ids(await found(e, 'referencePrefix=order:'))).toEqual([b2a.id, a2b.id]);
    expect(await found(e, 'referencePrefix=order')).toHaveLength(3);
    expect(ids(await found(e, 'referencePrefix=fund_'))).toHaveLength(1);
    expect(ids(await found(e, `referencePrefix=${encodeURIComponent('order%')}`))).toEqual([]);
    expect(await found(e, `referencePrefix=${encodeURIComponent('%')}`)).toEqual([]);
    expect(ids(await found(e, `reverses=${a2b.id}`))).toEqual([reversal.id]);
  });

  it('metadata.<key>: the string, or the number or boolean whose JSON text it is; several pairs combine', async () => {
    expect(ids(await found(e, 'metadata.order=A-1'))).toEqual([a2b.id]);
    expect(ids(await found(e, 'metadata.count=5'))).toEqual([b2a.id, a2b.id]);
    expect(ids(await found(e, 'metadata.vip=true'))).toEqual([flagged.id, tagged.id]);
    expect(ids(await found(e, 'metadata.vip=true&metadata.note=' + encodeURIComponent('quote " comma , é')))).toEqual([tagged.id]);
    // the value's JSON text: 5 is not "5.0"
    expect(await found(e, 'metadata.count=5.0')).toEqual([]);
    expect(await found(e, 'metadata.order=a-1')).toEqual([]);
  });
});

describe('GET /transactions/search: @expired', () => {
  it('to=@expired lists the expiries', async () => {
    const e = await fundedProject(t, { owner: 'search-expired' }, { customers: 2, systemBalance: 100 });
    const [{ id: assetId }] = (await t.request('GET', `/assets?projectId=${e.projectId}`, { key: e.key })).body.assets;
    expect((await t.request('PUT', `/assets/${assetId}`, { key: e.key, body: { expiresAfterSeconds: 3600 } })).status).toBe(200);
    const [c] = e.customers;
    await transfer(e, { amount: 10, from: e.system.id, to: c.id });
    await t.db.query(`UPDATE lots SET expires_at = clock_timestamp()::timestamptz(3) WHERE wallet_id = $1`, [c.id]);
    await transfer(e, { amount: 1, from: e.system.id, to: c.id }); // posts the due expiry first
    const expired = await found(e, 'to=@expired');
    expect(expired).toHaveLength(1);
    expect(expired[0]).toMatchObject({ from: c.address, to: '@expired', amount: 10, balance: 0 });
  });
});

describe('GET /transactions/search: paging', () => {
  it('pages newest first with nextAfter, no gaps or repeats while postings go on', async () => {
    const e = await fundedProject(t, { owner: 'search-paging' }, { customers: 2, systemBalance: 1000 });
    const [a, b] = e.customers;
    // a batch: many rows of one instant, ordered by commit order
    await posted(e, '/transactions/batch', { transfers: Array.from({ length: 6 }, () => ({ amount: 1, currency: e.symbol, from: e.system.id, to: a.id })) });
    for (let i = 0; i < 5; i++) await transfer(e, { amount: 1, from: e.system.id, to: b.id });
    const all = ids(await found(e, 'limit=100'));
    expect(all).toHaveLength(12);
    const seen: string[] = [];
    let after = '';
    for (let page = 0; ; page++) {
      const res = await search(e, `limit=5${after ? `&after=${after}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...ids(res.body.transactions));
      expect(res.body.pagination.limit).toBe(5);
      // postings between pages: newer than the first page, they never shift the next ones
      await transfer(e, { amount: 1, from: e.system.id, to: a.id });
      if (!res.body.pagination.hasMore) {
        expect(res.body.pagination.nextAfter).toBe(after === '' ? res.body.pagination.nextAfter : res.body.pagination.nextAfter);
        break;
      }
      after = res.body.pagination.nextAfter;
    }
    expect(seen).toEqual(all);
    // an empty page answers the after it was asked for
    const last = await search(e, `after=${after}&limit=100`);
    const end = last.body.pagination.nextAfter;
    const empty = await search(e, `after=${end}`);
    expect(empty.body).toEqual({ transactions: [], pagination: { limit: 20, nextAfter: end, hasMore: false } });
  });
});

describe('GET /transactions/search: refusals and tenancy', () => {
  let e: FundedProject;
  beforeAll(async () => {
    e = await fundedProject(t, { owner: 'search-refusals' }, { customers: 1 });
  });

  it.each([
    ['an unknown parameter', 'colour=red', 'colour'],
    ['limit 0', 'limit=0', 'limit'],
    ['limit 101', 'limit=101', 'limit'],
    ['a minAmount with more decimals than the currency', 'currency=PTS&minAmount=1.001', 'minAmount'],
    ['a minAmount with more than 18 decimals', 'minAmount=0.0000000000000000001', 'minAmount'],
    ['a negative maxAmount', 'maxAmount=-1', 'maxAmount'],
    ['a since without offset', 'since=2026-01-01T00:00:00', 'since'],
    ['a malformed after', 'after=zzz', 'after'],
    ['an after whose date PostgreSQL cannot hold', `after=${Buffer.from('-999999999999999:1').toString('base64url')}`, 'after'],
    ['an after past the year 9999', `after=${Buffer.from('999999999999999:1').toString('base64url')}`, 'after'],
    ['an after whose seq passes bigint', `after=${Buffer.from('1:9999999999999999999').toString('base64url')}`, 'after'],
    ['an after of 2,000 characters', `after=${'A'.repeat(2000)}`, 'after'],
    ['a reverses that is no UUID', 'reverses=42', 'reverses'],
  ])('%s: 400', async (_name, query, field) => {
    const res = await search(e, query);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(JSON.stringify(res.body.details)).toContain(field);
  });

  it('without projectId: 400', async () => {
    expect((await t.request('GET', '/transactions/search', { key: e.key })).status).toBe(400);
  });

  it.each([['walletId'], ['from'], ['to']])('a %s naming no wallet of the project: 404 not_found', async (field) => {
    const other = await fundedProject(t, { owner: `search-other-${field}` }, { customers: 1 });
    for (const ref of ['nobody', other.customers[0].id, '@elsewhere']) {
      const res = await search(e, `${field}=${encodeURIComponent(ref)}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });

  it('another owner\'s project: 404, as a missing one; a currency the project lacks: 404', async () => {
    const intruder = await t.issueKey('search-intruder', 'pro');
    expect((await search(e, '', intruder)).status).toBe(404);
    expect((await t.request('GET', '/transactions/search?projectId=2147483647', { key: e.key })).status).toBe(404);
    expect((await search(e, 'currency=NOPE')).status).toBe(404);
  });
});
