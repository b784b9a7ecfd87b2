import { startTestApp, type TestApp } from '../../support/test-app.js';
import { fundedProject, type FundedProject } from '../../support/fixtures.js';

/** CONTRACT §4 idempotency under concurrency, refusals and validation failures. */
describe('Idempotency-Key under concurrency', () => {
  let t: TestApp;
  let p: FundedProject;
  beforeAll(async () => {
    t = await startTestApp();
    p = await fundedProject(t, await t.issueKey('idem-owner'), { customers: 2, systemBalance: '1000' });
  });
  afterAll(() => t.close());

  const postings = async (from: string, to: string): Promise<number> => {
    const [row] = await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM transactions WHERE from_wallet_id = $1 AND to_wallet_id = $2`, [from, to]);
    return Number(row.n);
  };
  const send = (key: string, body: unknown, path = '/transactions') => t.request('POST', path, { key: p.key, body, headers: { 'idempotency-key': key } });

  it('20 concurrent requests with one key post exactly once; the others replay or answer 409 idempotency_in_progress', async () => {
    const body = { amount: 12.34, currency: p.symbol, from: p.system.id, to: p.customers[0].id, projectId: p.projectId };
    const replies = await Promise.all(Array.from({ length: 20 }, () => send('concurrent-1', body)));
    expect(await postings(p.system.id, p.customers[0].id)).toBe(1);
    const originals = replies.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') !== 'true');
    const replays = replies.filter((r) => r.headers.get('idempotent-replayed') === 'true');
    const inProgress = replies.filter((r) => r.status === 409);
    expect(originals).toHaveLength(1);
    expect(replays.length + inProgress.length).toBe(19);
    for (const replay of replays) {
      expect(replay.status).toBe(201);
      expect(replay.body).toEqual(originals[0].body);
    }
    for (const busy of inProgress) expect(busy.body).toEqual({ code: 'idempotency_in_progress', message: expect.any(String), details: expect.any(Object) });
    // Once settled, every retry is a replay of the one posting.
    const retry = await send('concurrent-1', body);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(originals[0].body);
    expect(await postings(p.system.id, p.customers[0].id)).toBe(1);
  });

  it('20 concurrent project creations with one key create one project', async () => {
    const key = await t.issueKey('idem-projects');
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => t.request('POST', '/projects', { key, body: { name: 'once' }, headers: { 'idempotency-key': 'project-once' } })),
    );
    const created = new Set(replies.filter((r) => r.status === 201).map((r) => r.body.id));
    expect(created.size).toBe(1);
    expect(replies.every((r) => r.status === 201 || (r.status === 409 && r.body.code === 'idempotency_in_progress'))).toBe(true);
    const [row] = await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM projects WHERE owner_id = 'idem-projects'`);
    expect(row.n).toBe('1');
  });

  it('the same key with a different body answers 422 idempotency_key_reuse and posts nothing', async () => {
    const body = { amount: 1, currency: p.symbol, from: p.system.id, to: p.customers[1].id, projectId: p.projectId };
    expect((await send('reuse-1', body)).status).toBe(201);
    const other = await send('reuse-1', { ...body, amount: 2 });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ code: 'idempotency_key_reuse', message: expect.any(String), details: expect.any(Object) });
    const otherPath = await send('reuse-1', { amount: 1, currency: p.symbol, projectId: p.projectId, to: p.system.id }, '/transactions/seed');
    expect(otherPath.status).toBe(422);
    expect(await postings(p.system.id, p.customers[1].id)).toBe(1);
  });

  it('a JSON-equal body with its keys in another order is the same request', async () => {
    const body = { amount: 0.5, currency: p.symbol, from: p.system.id, to: p.customers[1].id, projectId: p.projectId };
    const first = await send('order-1', body);
    expect(first.status).toBe(201);
    const reordered = await t.request('POST', '/transactions', {
      key: p.key,
      raw: JSON.stringify({ projectId: p.projectId, to: p.customers[1].id, from: p.system.id, currency: p.symbol, amount: 0.5 }),
      headers: { 'idempotency-key': 'order-1' },
    });
    expect(reordered.status).toBe(201);
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
    expect(reordered.body).toEqual(first.body);
  });

  it('a refused request replays as refused, even once it would succeed', async () => {
    const body = { amount: 50, currency: p.symbol, from: p.customers[1].id, to: p.customers[0].id, projectId: p.projectId };
    const before = await postings(p.customers[1].id, p.customers[0].id);
    const refused = await send('refused-1', body);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('insufficient_funds');
    // Fund the sender: the same request with a new key would now pass …
    expect((await send('fund-refused', { amount: 100, currency: p.symbol, from: p.system.id, to: p.customers[1].id, projectId: p.projectId })).status).toBe(201);
    // … but the key replays the refusal, and concurrent replays agree.
    const replays = await Promise.all(Array.from({ length: 5 }, () => send('refused-1', body)));
    for (const replay of replays) {
      expect(replay.status).toBe(409);
      expect(replay.body).toEqual(refused.body);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
    }
    expect(await postings(p.customers[1].id, p.customers[0].id)).toBe(before);
  });

  it('a 404 answer is stored and replayed too', async () => {
    const body = { amount: 1, currency: 'NOPE', from: p.system.id, to: p.customers[0].id, projectId: p.projectId };
    const first = await send('not-found-1', body);
    expect(first.status).toBe(404);
    const again = await send('not-found-1', body);
    expect(again.status).toBe(404);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('a 400 is not stored: the corrected request may reuse the key', async () => {
    const before = await postings(p.system.id, p.customers[0].id);
    const bad = await send('corrected-1', { amount: 1.005, currency: p.symbol, from: p.system.id, to: p.customers[0].id, projectId: p.projectId });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_error');
    const malformed = await t.request('POST', '/transactions', { key: p.key, raw: '{"amount": ', headers: { 'idempotency-key': 'corrected-1' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('invalid_json');
    const good = await send('corrected-1', { amount: 1.25, currency: p.symbol, from: p.system.id, to: p.customers[0].id, projectId: p.projectId });
    expect(good.status).toBe(201);
    expect(good.headers.get('idempotent-replayed')).toBeNull();
    expect(await postings(p.system.id, p.customers[0].id)).toBe(before + 1);
  });

  it('keys are scoped per owner: another owner may use the same key for its own request', async () => {
    const other = await fundedProject(t, await t.issueKey('idem-other'), { customers: 1, systemBalance: '10' });
    const body = { amount: 1, currency: other.symbol, from: other.system.id, to: other.customers[0].id, projectId: other.projectId };
    const res = await t.request('POST', '/transactions', { key: other.key, body, headers: { 'idempotency-key': 'concurrent-1' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
  });

  it('an empty or over-long key is a 400', async () => {
    const body = { amount: 1, currency: p.symbol, from: p.system.id, to: p.customers[0].id, projectId: p.projectId };
    expect((await send('x'.repeat(256), body)).status).toBe(400);
    expect((await send('', body)).status).toBe(400);
  });
});
