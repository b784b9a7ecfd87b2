import type { Database } from '../../src/db/database.js';
import { watchKeyIssue } from '../support/key-issue-settled.js';
import { startLoggedApp, type LoggedApp } from '../support/logged-app.js';
import { ADMIN_TOKEN } from '../support/test-app.js';

/**
 * An unexpected failure inside a resolver: the answer carries only `internal_error`, the cause
 * goes to the log with the request id. The database pool is closed under a warmed-up key (its
 * authentication and call count are cached, so the request reaches the resolver).
 */
describe('GraphQL internal_error', () => {
  let logged: LoggedApp;
  let db: Database;
  let baseUrl: string;
  let lines: Record<string, any>[];

  beforeAll(async () => {
    logged = await startLoggedApp();
    ({ db, baseUrl, lines } = logged);
  });
  afterAll(() => logged.close());

  const post = (key: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', api_key: key, ...headers }, body: JSON.stringify(body) });

  it('answers internal_error without internals and logs the cause with the request id', async () => {
    // warmed up once the issue has reached the key cache for good, or a late NOTIFY would drop the
    // key and the request would fail in authentication instead of in the resolver
    const issue = watchKeyIssue(logged.app.services.apiKeys, 'gql-doomed');
    const issued = await fetch(`${baseUrl}/admin/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', admin_token: ADMIN_TOKEN },
      body: JSON.stringify({ owner: 'gql-doomed', plan_code: 'pro' }),
    }).then((r) => r.json() as Promise<{ api_key: string }>);
    await issue.settled;
    issue.stop();
    expect((await post(issued.api_key, { query: '{ projects(first: 1) { totalCount } }' })).status).toBe(200);

    await db.close();

    // The ledger reads through the raw pool (the ORM would reconnect on its own).
    const query = '{ transactions(walletId: "00000000-0000-4000-8000-000000000000") { totalCount } }';
    const res = await post(issued.api_key, { query }, { 'x-request-id': 'gql-500-check' });
    const text = await res.text();
    const body = JSON.parse(text);
    expect(body).toEqual({ errors: [expect.anything()], data: { transactions: null } });
    expect(body.errors[0]).toMatchObject({ message: 'internal error', extensions: { code: 'internal_error', details: {} } });
    expect(text).not.toMatch(/\bat .+:\d+:\d+|node_modules|pool|Error:/i);

    const entry = lines.find((l) => l.requestId === 'gql-500-check' && l.msg === 'unexpected GraphQL error');
    expect(entry).toBeDefined();
    expect(entry!.level).toBe(50);
    expect(entry!.err).toBeDefined();
  });

  it('does not log refusals (domain errors are answers, not defects)', async () => {
    expect(lines.filter((l) => l.msg === 'unexpected GraphQL error' && l.requestId !== 'gql-500-check')).toEqual([]);
  });
});
