import { expectStatus, fundedProject, transfer, UNKNOWN_UUID } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** GET /projects/{id}/analytics (CONTRACT §23). */
let t: TestApp;
let pro: string;
let free: string;
beforeAll(async () => {
  t = await startTestApp();
  pro = await t.issueKey('rest-analyst', 'pro');
  free = await t.issueKey('rest-free', 'free');
});
afterAll(() => t.close());

const get = (key: string | undefined, path: string) => t.request('GET', path, { key });

describe('plans without advanced_analytics', () => {
  it('answer 403 feature_unavailable right after authentication: before the parameters and the project', async () => {
    const own = await expectStatus(t.request('POST', '/projects', { key: free, body: { name: 'Free' } }), 201);
    for (const path of [`/projects/${own.id}/analytics`, '/projects/abc/analytics?interval=week&since=x', '/projects/999999/analytics', `/projects/${own.id}/analytics?unknown=1`]) {
      const res = await get(free, path);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'feature_unavailable', details: { feature: 'advanced_analytics' } });
    }
    expect((await get(undefined, `/projects/${own.id}/analytics`)).status).toBe(401);
    expect((await get('wrong-key', '/projects/abc/analytics')).status).toBe(401);
  });

  it('starter, pro and enterprise have the flag', async () => {
    for (const plan of ['starter', 'enterprise']) {
      const key = await t.issueKey(`rest-${plan}`, plan);
      const p = await fundedProject(t, key, { customers: 1 });
      expect((await get(key, `/projects/${p.projectId}/analytics`)).status).toBe(200);
    }
  });
});

describe('parameters', () => {
  it.each([
    ['a malformed project id', '/projects/abc/analytics', 'id'],
    ['an unknown interval', '/projects/1/analytics?interval=week', 'interval'],
    ['a timestamp without offset', '/projects/1/analytics?since=2026-01-01T00:00:00', 'since'],
    ['since at until', '/projects/1/analytics?since=2026-01-02T00:00:00Z&until=2026-01-02T00:00:00Z', 'since'],
    ['since after until', '/projects/1/analytics?since=2026-01-03T00:00:00Z&until=2026-01-02T00:00:00Z', 'since'],
    ['401 daily buckets', '/projects/1/analytics?since=2025-01-01T00:00:00Z&until=2026-02-06T00:00:00Z', 'since'],
    ['401 hourly buckets', '/projects/1/analytics?interval=hour&since=2026-01-01T00:00:00Z&until=2026-01-17T17:00:00Z', 'since'],
    ['an unknown parameter', '/projects/1/analytics?page=2', 'page'],
  ])('%s: 400 validation_error', async (_name, path, field) => {
    const res = await get(pro, path);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', details: { field } });
  });

  it('another owner’s project, an unknown one or a currency it lacks: 404', async () => {
    const other = await t.issueKey('rest-other', 'pro');
    const theirs = await fundedProject(t, other, { customers: 1 });
    const mine = await fundedProject(t, pro, { customers: 1 });
    expect((await get(pro, `/projects/${theirs.projectId}/analytics`)).body.code).toBe('not_found');
    expect((await get(pro, '/projects/999999/analytics')).status).toBe(404);
    expect((await get(pro, `/projects/${mine.projectId}/analytics?currency=NOPE`)).status).toBe(404);
    expect(UNKNOWN_UUID).toBeTruthy();
  });
});

describe('the answer', () => {
  it('30 dense daily buckets ending with the current one by default; totals are the sums of the series', async () => {
    const p = await fundedProject(t, pro, { customers: 2 });
    const [a, b] = p.customers;
    await transfer(t, p, p.system.id, a.id, 40.5);
    await transfer(t, p, a.id, b.id, 10);
    await transfer(t, p, b.id, p.system.id, 2.25);
    await t.app.services.eventSequencer.flush();
    const res = await get(pro, `/projects/${p.projectId}/analytics`);
    expect(res.status).toBe(200);
    const body = res.body;
    const today = new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00.000Z').getTime();
    expect(body).toMatchObject({ currency: 'PTS', interval: 'day', exchangeRate: null, since: new Date(today - 29 * 86_400_000).toISOString(), until: new Date(today + 86_400_000).toISOString() });
    expect(body.series).toHaveLength(30);
    expect(body.series.map((s: { start: string }) => Date.parse(s.start))).toEqual(Array.from({ length: 30 }, (_, i) => today - (29 - i) * 86_400_000));
    expect(body.series.slice(0, 29).every((s: Record<string, number>) => s.issued === 0 && s.activeWallets === 0)).toBe(true);
    expect(body.series[29]).toEqual({ start: new Date(today).toISOString(), issued: 40.5, redeemed: 2.25, transferred: 10, expired: 0, reversed: 0, activeWallets: 2 });
    expect(body.totals).toEqual({ issued: 40.5, redeemed: 2.25, transferred: 10, expired: 0, reversed: 0, outstanding: 38.25, outstandingValue: null });
  });

  it('until may lie in the future: the current bucket is partial, the later ones empty; still at most 400 buckets', async () => {
    const p = await fundedProject(t, pro, { customers: 1 });
    const posted = await transfer(t, p, p.system.id, p.customers[0].id, 5);
    await t.app.services.eventSequencer.flush();
    const hour = 3_600_000;
    const current = Math.floor(Date.parse(posted.transaction.date) / hour) * hour; // the posting's bucket, whatever the clock does meanwhile
    const res = await get(pro, `/projects/${p.projectId}/analytics?interval=hour&until=${new Date(current + 10 * hour + 1).toISOString()}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ since: new Date(current - 19 * hour).toISOString(), until: new Date(current + 11 * hour).toISOString() });
    expect(res.body.series).toHaveLength(30);
    const at = res.body.series.findIndex((s: { start: string }) => Date.parse(s.start) === current);
    expect(res.body.series[at]).toMatchObject({ issued: 5, activeWallets: 1 });
    expect(res.body.series.slice(at + 1).every((s: Record<string, number>) => s.issued === 0 && s.activeWallets === 0)).toBe(true);
    expect(res.body.totals).toMatchObject({ issued: 5, outstanding: 5 });
    const since = new Date(current).toISOString();
    const longest = await get(pro, `/projects/${p.projectId}/analytics?interval=hour&since=${since}&until=${new Date(current + 400 * hour).toISOString()}`);
    expect(longest.status).toBe(200);
    expect(longest.body.series).toHaveLength(400);
    const tooLong = await get(pro, `/projects/${p.projectId}/analytics?interval=hour&since=${since}&until=${new Date(current + 400 * hour + 1).toISOString()}`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ code: 'validation_error', details: { field: 'since' } });
  });

  it('hourly buckets: since rounded down, until up', async () => {
    const p = await fundedProject(t, pro, { customers: 1 });
    const res = await get(pro, `/projects/${p.projectId}/analytics?interval=hour&since=2026-01-01T10:15:00%2B01:00&until=2026-01-01T12:00:01Z`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ interval: 'hour', since: '2026-01-01T09:00:00.000Z', until: '2026-01-01T13:00:00.000Z' });
    expect(res.body.series.map((s: { start: string }) => s.start)).toEqual(['09', '10', '11', '12'].map((h) => `2026-01-01T${h}:00:00.000Z`));
  });

  it('outstandingValue = outstanding ÷ exchangeRate, 2 decimals half away from zero, when the project supports its rate', async () => {
    const project = await expectStatus(t.request('POST', '/projects', { key: pro, body: { name: 'Rated', exchangeRate: 8, supportExchangeRate: true } }), 201);
    await expectStatus(t.request('POST', '/assets', { key: pro, body: { name: 'Points', symbol: 'PTS', fractions: 2, projectId: project.id } }), 201);
    const system = await expectStatus(t.request('POST', '/wallets/create/system', { key: pro, body: { projectId: project.id } }), 201);
    const customer = await expectStatus(t.request('POST', '/wallets/create/customer', { key: pro, body: { projectId: project.id } }), 201);
    await expectStatus(t.request('POST', '/transactions/seed', { key: pro, body: { amount: 100, currency: 'PTS', to: system.id, projectId: project.id } }), 201);
    await expectStatus(t.request('POST', '/transactions', { key: pro, body: { amount: 0.2, currency: 'PTS', from: system.id, to: customer.id, projectId: project.id } }), 201);
    await t.app.services.eventSequencer.flush();
    const res = await get(pro, `/projects/${project.id}/analytics?currency=PTS`);
    // 0.2 / 8 = 0.025 → 0.03
    expect(res.body).toMatchObject({ exchangeRate: 8, totals: { outstanding: 0.2, outstandingValue: 0.03, issued: 0.2 } });
  });

  it('a posting is in the answer within 1 s of its commit (folded by the numbering that announces its event)', async () => {
    const p = await fundedProject(t, pro, { customers: 1 });
    await t.app.services.eventSequencer.flush();
    await t.app.services.eventHub.wake();
    let numbered!: () => void;
    const arrived = new Promise<void>((resolve) => (numbered = resolve));
    const off = t.app.services.eventHub.subscribe((events) => {
      if (events.some((e) => e.projectId === p.projectId)) numbered();
    });
    try {
      const started = Date.now();
      await transfer(t, p, p.system.id, p.customers[0].id, 7);
      await arrived;
      const res = await get(pro, `/projects/${p.projectId}/analytics?interval=hour`);
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(res.body.totals.issued).toBe(7);
    } finally {
      off();
    }
  });
});
