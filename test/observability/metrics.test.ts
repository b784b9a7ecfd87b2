import { expectStatus, fundedProject, transfer, type FundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** GET /metrics (CONTRACT §17): the listed series, route templates as labels, the optional token. */
let t: TestApp;
let f: FundedProject;
beforeAll(async () => {
  t = await startTestApp();
  const key = await t.issueKey('metrics-owner', 'pro');
  f = await fundedProject(t, key, { customers: 2, systemBalance: '100' });
});
afterAll(() => t.close());

async function scrape(app: TestApp = t, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${app.baseUrl}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
}

/** The value of one sample, by metric name and exact label set (in the order prom-client prints them). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('counts HTTP requests by method, route template and status, never by raw path', async () => {
    const wallet = f.customers[0].id;
    await expectStatus(t.request('GET', `/wallets/${wallet}`, { key: f.key }), 200);
    await expectStatus(t.request('GET', `/wallets/${f.customers[1].id}`, { key: f.key }), 200);
    await expectStatus(t.request('GET', `/no/such/${wallet}`, { key: f.key }), 404);
    const text = await scrape();
    expect(sample(text, 'ledger_http_requests_total{method="GET",route="/wallets/{id}",status="200"}')).toBe(2);
    expect(sample(text, 'ledger_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(text).not.toContain(wallet);
    expect(sample(text, 'ledger_http_request_duration_seconds_count{method="GET",route="/wallets/{id}",status="200"}')).toBe(2);
    expect(text).toContain('ledger_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/wallets/{id}",status="200"}');
  });

  it('counts postings by outcome and observes how many postings each commit carried', async () => {
    const before = await scrape();
    const posted = sample(before, 'ledger_postings_total{outcome="posted"}') ?? 0;
    const commits = sample(before, 'ledger_posting_batch_size_count') ?? 0;
    await transfer(t, f, f.system.id, f.customers[0].id, 1);
    const refused = await t.request('POST', '/transactions', { key: f.key, body: { projectId: f.projectId, currency: f.symbol, from: f.customers[1].id, to: f.customers[0].id, amount: 5 } });
    expect(refused.status).toBe(409);
    const after = await scrape();
    expect(sample(after, 'ledger_postings_total{outcome="posted"}')).toBe(posted + 1);
    expect(sample(after, 'ledger_postings_total{outcome="insufficient_funds"}')).toBe(1);
    expect(sample(after, 'ledger_posting_batch_size_count')).toBe(commits + 2);
    expect(sample(after, 'ledger_posting_batch_size_sum')).toBeGreaterThanOrEqual(2);
  });

  it('counts GraphQL operations by type and whether a SQL plan answered', async () => {
    await expectStatus(t.graphql(f.key, `{ wallet(id: "${f.customers[0].id}") { id balances { balance } } }`), 200);
    await expectStatus(t.graphql(f.key, `mutation { renameProject(id: ${f.projectId}, name: "renamed") { id } }`), 200);
    const text = await scrape();
    expect(sample(text, 'ledger_graphql_operations_total{type="query",planned="true"}')).toBe(1);
    expect(sample(text, 'ledger_graphql_operations_total{type="mutation",planned="false"}')).toBe(1);
  });

  it('shows the pool, webhook deliveries and the process defaults', async () => {
    const text = await scrape();
    for (const state of ['in_use', 'idle', 'waiting']) expect(sample(text, `ledger_db_pool_connections{state="${state}"}`)).toBeGreaterThanOrEqual(0);
    expect(text).toContain('# TYPE ledger_webhook_deliveries_total counter');
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_heap_size_used_bytes');
  });

  it('needs no api_key, and with LEDGER_METRICS_TOKEN set it needs the bearer token', async () => {
    const guarded = await startTestApp({ metricsToken: 'scrape-secret-1' });
    try {
      const refused = await fetch(`${guarded.baseUrl}/metrics`);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ code: 'unauthorized', details: {} });
      expect((await fetch(`${guarded.baseUrl}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      expect(await scrape(guarded, { authorization: 'Bearer scrape-secret-1' })).toContain('ledger_http_requests_total');
    } finally {
      await guarded.close();
    }
  });
});
