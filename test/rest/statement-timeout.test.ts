import { fundedProject, transfer, type FundedProject } from '../support/fixtures.js';
import { openLocker, type Locker } from '../support/locks.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let f: FundedProject;
let locker: Locker;
beforeAll(async () => {
  t = await startTestApp({ statementTimeoutMs: 300 });
  const key = await t.issueKey('statement-timeout-rest', 'enterprise');
  f = await fundedProject(t, key, { customers: 3, systemBalance: '1000' });
  for (const c of f.customers) await transfer(t, f, f.system.id, c.id, 10);
});
beforeEach(async () => {
  locker = await openLocker(t.databaseUrl);
});
afterEach(() => locker.end());
afterAll(() => t.close());

const TIMEOUT_BODY = { code: 'timeout', message: expect.stringContaining('time-out'), details: {} };

const balanceOf = async (walletId: string): Promise<string> => {
  const [row] = await t.db.query<{ amount: string }>(`SELECT amount::text FROM balances WHERE wallet_id = $1`, [walletId]);
  return row.amount;
};

const history = (walletId: string) => t.request('GET', `/transactions?walletId=${walletId}&currency=PTS&projectId=${f.projectId}`, { key: f.key });

describe('statement time-out: 503 timeout (CONTRACT §18)', () => {
  it('answers a transfer whose statement waits on a locked balance row past the time-out with 503 timeout; nothing is posted and the same Idempotency-Key posts later', async () => {
    const [a, b] = f.customers;
    const before = { a: await balanceOf(a.id), b: await balanceOf(b.id), history: (await history(a.id)).body };
    const send = () =>
      t.request('POST', '/transactions', {
        key: f.key,
        headers: { 'idempotency-key': 'cut-then-retried' },
        body: { amount: 2.5, currency: 'PTS', from: a.id, to: b.id, projectId: f.projectId },
      });
    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM balances WHERE wallet_id = $1 FOR UPDATE', [a.id]);
    const cut = await send();
    await locker.query('ROLLBACK');
    expect(cut.status).toBe(503);
    expect(cut.body).toEqual(TIMEOUT_BODY);
    expect(cut.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await balanceOf(a.id)).toBe(before.a);
    expect(await balanceOf(b.id)).toBe(before.b);
    expect((await history(a.id)).body).toEqual(before.history);

    const retried = await send();
    expect(retried.status).toBe(201);
    expect(retried.body.transaction.amount).toBe(2.5);
    const replayed = await send();
    expect(replayed.status).toBe(201);
    expect(replayed.body.transaction.id).toBe(retried.body.transaction.id);
  });

  it('cuts a dry run like any posting (CONTRACT §24): 503 timeout, nothing written, and the next dry run answers', async () => {
    const [a, b] = f.customers;
    const before = { a: await balanceOf(a.id), history: (await history(a.id)).body };
    const body = { amount: 1.5, currency: 'PTS', from: a.id, to: b.id, projectId: f.projectId };
    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM balances WHERE wallet_id = $1 FOR UPDATE', [a.id]);
    const cut = await t.request('POST', '/transactions?dryRun=true', { key: f.key, body });
    await locker.query('ROLLBACK');
    expect(cut.status).toBe(503);
    expect(cut.body).toEqual(TIMEOUT_BODY);
    const next = await t.request('POST', '/transactions?dryRun=true', { key: f.key, body });
    expect(next.status).toBe(200);
    expect(next.body.transaction.amount).toBe(1.5);
    expect(await balanceOf(a.id)).toBe(before.a);
    expect((await history(a.id)).body).toEqual(before.history);
  });

  it('answers a read that waits on a table lock past the time-out with 503 timeout (REST) and extensions.code timeout (GraphQL)', async () => {
    const [a] = f.customers;
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE balances IN ACCESS EXCLUSIVE MODE');
    try {
      const rest = await t.request('GET', `/wallets/${a.id}`, { key: f.key });
      expect(rest.status).toBe(503);
      expect(rest.body).toEqual(TIMEOUT_BODY);
      const gql = await t.graphql(f.key, `query ($id: ID!) { wallet(id: $id) { id balances { balance } } }`, { id: a.id });
      expect(gql.body.errors).toEqual([expect.objectContaining({ message: TIMEOUT_BODY.message, extensions: { code: 'timeout', details: {} } })]);
    } finally {
      await locker.query('ROLLBACK');
    }
    expect((await t.request('GET', `/wallets/${a.id}`, { key: f.key })).status).toBe(200);
  });

  it('answers a GraphQL transfer cut by the time-out with extensions.code timeout and keeps its idempotencyKey free', async () => {
    const [, b, c] = f.customers;
    const mutation = `mutation ($input: TransferInput!, $key: String) { transfer(input: $input, idempotencyKey: $key) { id amount } }`;
    const variables = { input: { amount: 1, currency: 'PTS', from: b.id, to: c.id, projectId: f.projectId }, key: 'gql-cut-then-retried' };
    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM balances WHERE wallet_id = $1 FOR UPDATE', [b.id]);
    const cut = await t.graphql(f.key, mutation, variables);
    await locker.query('ROLLBACK');
    expect(cut.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'timeout', details: {} } })]);
    const retried = await t.graphql(f.key, mutation, variables);
    expect(retried.body.errors).toBeUndefined();
    expect(retried.body.data.transfer.amount).toBe("1");
  });

  it('answers a webhook flow cut by the time-out with 503 timeout and records no failed call (the same call may come again)', async () => {
    const calls = async () => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_events WHERE project_id = $1`, [f.projectId]))[0].n;
    const reward = () => t.request('POST', '/webhook', { key: f.key, body: { flowId: 'reward', projectId: f.projectId, values: { to: f.customers[2].id, amount: 1 } } });
    const before = await calls();
    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM balances WHERE wallet_id = $1 FOR UPDATE', [f.system.id]);
    const cut = await reward();
    await locker.query('ROLLBACK');
    expect(cut.status).toBe(503);
    expect(cut.body).toEqual(TIMEOUT_BODY);
    expect(await calls()).toBe(before);
    expect((await reward()).status).toBe(200);
    expect(await calls()).toBe(before + 1);
  });
});

describe('OpenAPI', () => {
  it('lists 503 timeout among the error responses of authenticated operations', async () => {
    const { body } = await t.request('GET', '/openapi.json');
    expect(body.paths['/transactions'].post.responses['503'].description).toContain('timeout');
    expect(body.paths['/wallets/{id}'].get.responses['503'].description).toContain('timeout');
  });
});
