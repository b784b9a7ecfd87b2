import { startTestApp, type TestApp } from '../../support/test-app.js';
import { fundedProject, type FundedProject } from '../../support/fixtures.js';

/**
 * GraphQL `events(after:)` takes a seq (an endCursor is one) and nothing else Number() would
 * read: '' or ' ' (0), '0x10' (16), '1e3' (1000) were answered as pages (found by the fuzz run,
 * test/http/fuzz.test.ts); GET /events already refused them.
 */
let t: TestApp;
let p: FundedProject;
beforeAll(async () => {
  t = await startTestApp();
  p = await fundedProject(t, await t.issueKey('events-after-owner'), { customers: 1, systemBalance: '10' });
});
afterAll(() => t.close());

const events = async (after: string) =>
  (await t.graphql(p.key, 'query($p: ID!, $after: String) { events(projectId: $p, first: 5, after: $after) { edges { node { seq } } } }', { p: String(p.projectId), after })).body;

it.each(['', ' ', '0x10', '1e3', '1.0', '-1', '+1'])('refuses after %j with validation_error', async (after) => {
  const body = await events(after);
  expect(body.data).toBeNull();
  expect(body.errors[0].extensions).toMatchObject({ code: 'validation_error' });
});

it('pages after a seq given as its digits', async () => {
  const first = await events('0');
  const seq = String(first.data.events.edges[0].node.seq);
  const next = await events(seq);
  expect(next.data.events.edges.map((edge: any) => edge.node.seq)).toEqual(first.data.events.edges.slice(1).map((edge: any) => edge.node.seq));
});
