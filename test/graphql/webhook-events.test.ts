import { expectStatus, fundedProject, type FundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { WebhookEventsDocument, type WebhookEventsQuery } from './generated/graphql.js';
import { data } from './support/client.js';

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
  // The test proves something only if the sequence numbers cross a power of ten.
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
