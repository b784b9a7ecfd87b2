import { expectStatus, fundedProject, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { WebhookEventsDocument, type WebhookEventsQuery } from '../generated/graphql.js';
import { data } from '../support/client.js';

/**
 * CONTRACT Clarifications §5: `webhookEvents` is ordered by its numeric sequence whatever the
 * number of events, and cursors page through without gaps or repeats. A fresh database numbers
 * the events 1, 2, … so 14 of them cross from one digit to two, where an order by the text of
 * `seq` would answer 1, 10, 11, …, 2.
 */
let t: TestApp;
let p: FundedProject;
const EVENTS = 14;
const flows: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  const key = await t.issueKey('events-order');
  p = await fundedProject(t, key, { customers: 1, systemBalance: 100 });
  for (let i = 1; i <= EVENTS; i++) {
    // Every third call posts a reward, the others are recorded only: both kinds land in one log.
    const flowId = i % 3 === 0 ? 'reward' : `step-${i}`;
    const values = i % 3 === 0 ? { to: p.customers[0].id, amount: i } : { i };
    await expectStatus(t.request('POST', '/webhook', { key, body: { flowId, projectId: p.projectId, values } }), 200);
    flows.push(`${flowId}#${i}`);
  }
  // The test proves something only if the sequence numbers cross a power of ten (numbered in commit order, as a read does).
  await t.db.query(`SELECT webhook_sequence_calls()`);
  const [range] = await t.db.query<{ low: string; high: string }>(`SELECT min(seq)::text AS low, max(seq)::text AS high FROM webhook_events WHERE project_id = $1`, [p.projectId]);
  expect(range.low.length).toBeLessThan(range.high.length);
});
afterAll(() => t.close());

const label = (node: { flowId: string; values: Record<string, unknown> }): string => `${node.flowId}#${String(node.values.i ?? node.values.amount)}`;

describe('webhookEvents', () => {
  it('lists every event in posting order', async () => {
    const { webhookEvents } = await data(t, p.key, WebhookEventsDocument, { projectId: String(p.projectId), first: 100 });
    expect(webhookEvents.totalCount).toBe(EVENTS);
    expect(webhookEvents.edges.map((e) => label(e.node))).toEqual(flows);
    expect(webhookEvents.pageInfo.hasNextPage).toBe(false);
  });

  it('pages through all of them with first: 5 and after, without gaps or repeats', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < EVENTS; page++) {
      const { webhookEvents }: WebhookEventsQuery = await data(t, p.key, WebhookEventsDocument, { projectId: String(p.projectId), first: 5, after });
      seen.push(...webhookEvents.edges.map((e) => label(e.node)));
      if (!webhookEvents.pageInfo.hasNextPage) break;
      after = webhookEvents.pageInfo.endCursor;
    }
    expect(seen).toEqual(flows);
  });
});

describe('webhookEvents while calls go on (CONTRACT §5/§16, clarified with part three)', () => {
  const page = async (q: FundedProject, after: string | null) => {
    const { webhookEvents }: WebhookEventsQuery = await data(t, q.key, WebhookEventsDocument, { projectId: String(q.projectId), first: 100, after });
    return { labels: webhookEvents.edges.map((e) => e.node.flowId), endCursor: webhookEvents.pageInfo.endCursor ?? after };
  };
  const call = (q: FundedProject, flowId: string) => expectStatus(t.request('POST', '/webhook', { key: q.key, body: { flowId, projectId: q.projectId, values: {} } }), 200);

  it('never pages past a call that was stored before another but commits after it', async () => {
    const q = await fundedProject(t, p.key, { customers: 0, systemBalance: 0 });
    await call(q, 'before');
    const first = await page(q, null);
    const { rest } = await t.db.transaction(async (inFlight) => {
      // a call stored first, its transaction still open (as a posting's is until it commits)
      await inFlight.query(`INSERT INTO webhook_events (id, project_id, owner_id, flow_id, "values", success, message) SELECT gen_random_uuid(), id, owner_id, 'slow', '{}', true, 'ok' FROM projects WHERE id = $1`, [q.projectId]);
      await call(q, 'fast'); // stored after it, committed before it
      return { rest: await page(q, first.endCursor) };
    });
    const last = await page(q, rest.endCursor);
    expect([...first.labels, ...rest.labels, ...last.labels]).toEqual(['before', 'fast', 'slow']);
  });

  it('pages 40 concurrent calls without gaps or repeats while they commit', async () => {
    const q = await fundedProject(t, p.key, { customers: 0, systemBalance: 0 });
    const seen: string[] = [];
    let after: string | null = null;
    const calls = Promise.all(Array.from({ length: 40 }, (_, i) => call(q, `c${i}`)));
    let done = false;
    void calls.then(() => (done = true));
    for (;;) {
      const finished = done; // every call committed before this page was read
      const next = await page(q, after);
      seen.push(...next.labels);
      after = next.endCursor;
      if (finished && next.labels.length === 0) break;
    }
    await calls;
    expect([...seen].sort()).toEqual(Array.from({ length: 40 }, (_, i) => `c${i}`).sort());
  });
});
