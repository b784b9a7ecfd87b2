import { fundedProject, transfer } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/** Project.analytics (CONTRACT §23): the REST answer in GraphQL (amounts as decimal strings). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const QUERY = `query($id: ID!, $interval: String, $since: DateTime, $until: DateTime) {
  project(id: $id) { analytics(interval: $interval, since: $since, until: $until) {
    currency interval since until exchangeRate
    totals { issued redeemed transferred expired reversed outstanding outstandingValue }
    series { start issued redeemed transferred expired reversed activeWallets }
  } }
}`;

it('answers as REST does, amounts as decimal strings', async () => {
  const key = await t.issueKey('gql-analyst', 'pro');
  const p = await fundedProject(t, key, { customers: 2 });
  await transfer(t, p, p.system.id, p.customers[0].id, 12.5);
  await transfer(t, p, p.customers[0].id, p.customers[1].id, 2);
  await t.app.services.eventSequencer.flush();
  const res = await t.graphql(key, QUERY, { id: String(p.projectId), interval: 'hour' });
  expect(res.body.errors).toBeUndefined();
  const analytics = res.body.data.project.analytics;
  const rest = (await t.request('GET', `/projects/${p.projectId}/analytics?interval=hour`, { key })).body;
  expect(analytics.series).toHaveLength(30);
  expect(analytics.totals).toEqual({ issued: '12.5', redeemed: '0', transferred: '2', expired: '0', reversed: '0', outstanding: '12.5', outstandingValue: null });
  expect({ ...analytics, totals: undefined, series: undefined }).toEqual({ ...rest, totals: undefined, series: undefined });
  expect(analytics.series.map((s: Record<string, unknown>) => [s.start, Number(s.issued), Number(s.transferred), s.activeWallets])).toEqual(
    rest.series.map((s: Record<string, unknown>) => [s.start, s.issued, s.transferred, s.activeWallets]),
  );
});

it('refuses plans without advanced_analytics (feature_unavailable) and bad arguments (validation_error)', async () => {
  const free = await t.issueKey('gql-free', 'free');
  const own = await fundedProject(t, free, { customers: 1 });
  const refused = await t.graphql(free, QUERY, { id: String(own.projectId), interval: 'week' });
  expect(refused.body.errors[0].extensions.code).toBe('feature_unavailable');
  const key = await t.issueKey('gql-analyst-2', 'pro');
  const p = await fundedProject(t, key, { customers: 1 });
  const bad = await t.graphql(key, QUERY, { id: String(p.projectId), interval: 'week' });
  expect(bad.body.errors[0].extensions).toMatchObject({ code: 'validation_error', details: { field: 'interval' } });
  const range = await t.graphql(key, QUERY, { id: String(p.projectId), since: '2026-01-02T00:00:00Z', until: '2026-01-01T00:00:00Z' });
  expect(range.body.errors[0].extensions.code).toBe('validation_error');
});

it('takes an until in the future (the current bucket partial), still at most 400 buckets', async () => {
  const key = await t.issueKey('gql-analyst-future', 'pro');
  const p = await fundedProject(t, key, { customers: 1 });
  const posted = await transfer(t, p, p.system.id, p.customers[0].id, 3);
  await t.app.services.eventSequencer.flush();
  const day = 86_400_000;
  const current = Math.floor(Date.parse(posted.transaction.date) / day) * day;
  const id = String(p.projectId);
  const res = await t.graphql(key, QUERY, { id, since: new Date(current).toISOString(), until: new Date(current + 5 * day - 1).toISOString() });
  expect(res.body.errors).toBeUndefined();
  expect(res.body.data.project.analytics).toMatchObject({ until: new Date(current + 5 * day).toISOString(), totals: { issued: '3', outstanding: '3' } });
  expect(res.body.data.project.analytics.series.map((s: { issued: string }) => s.issued)).toEqual(['3', '0', '0', '0', '0']);
  const tooLong = await t.graphql(key, QUERY, { id, since: new Date(current).toISOString(), until: new Date(current + 400 * day + 1).toISOString() });
  expect(tooLong.body.errors[0].extensions).toMatchObject({ code: 'validation_error', details: { field: 'since' } });
});
