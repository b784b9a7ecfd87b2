import { startTestApp, type TestApp } from '../support/test-app.js';
import { economy, minorBalances, transactionCount, type Economy } from './ledger-setup.js';

let t: TestApp;
let e: Economy;
beforeAll(async () => {
  t = await startTestApp();
  e = await economy(t, 'hook-owner', { customers: 2, seed: 1000, fund: 10, exchangeRate: 1.5 });
});
afterAll(() => t.close());

const hook = (flowId: string, values: Record<string, unknown>, key = e.key) => t.request('POST', '/webhook', { key, body: { flowId, projectId: e.projectId, values } });
const events = () => t.db.query<{ flow_id: string; success: boolean; message: string; transaction_id: string | null }>(`SELECT flow_id, success, message, transaction_id FROM webhook_events WHERE project_id = $1 ORDER BY seq`, [e.projectId]);

describe('POST /webhook', () => {
  it('rewards a customer from the default system wallet', async () => {
    const before = await minorBalances(t, e.projectId);
    const res = await hook('reward', { to: e.customers[0].address, amount: 2.5 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String) });
    const after = await minorBalances(t, e.projectId);
    expect(after.get(e.customers[0].id)! - before.get(e.customers[0].id)!).toBe(250n);
    expect(after.get(e.system.id)! - before.get(e.system.id)!).toBe(-250n);
    const last = (await events()).at(-1)!;
    expect(last).toMatchObject({ flow_id: 'reward', success: true });
    expect(last.transaction_id).not.toBeNull();
  });

  it('converts fiatAmount × exchangeRate, rounded down to the asset fractions', async () => {
    const before = await minorBalances(t, e.projectId);
    const res = await hook('reward', { to: e.customers[1].id, fiatAmount: 3.333 });
    expect(res.status).toBe(200);
    // 3.333 × 1.5 = 4.9995 → 4.99
    expect((await minorBalances(t, e.projectId)).get(e.customers[1].id)! - before.get(e.customers[1].id)!).toBe(499n);
  });

  it('refuses fiatAmount on a project without supportExchangeRate', async () => {
    const plain = await economy(t, 'hook-plain', { customers: 1, seed: 10 });
    const res = await t.request('POST', '/webhook', { key: plain.key, body: { flowId: 'reward', projectId: plain.projectId, values: { to: plain.customers[0].id, fiatAmount: 1 } } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
  });

  it('redeems from a customer to the default system wallet', async () => {
    const before = await minorBalances(t, e.projectId);
    const res = await hook('redeem', { from: e.customers[0].id, amount: 1 });
    expect(res.status).toBe(200);
    expect((await minorBalances(t, e.projectId)).get(e.customers[0].id)! - before.get(e.customers[0].id)!).toBe(-100n);
  });

  it('answers a flow that cannot run like the transfer would, posts nothing, and stores the refusal', async () => {
    const count = await transactionCount(t);
    const res = await hook('redeem', { from: e.customers[0].id, amount: 1_000_000 });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('insufficient_funds');
    expect(await transactionCount(t)).toBe(count);
    const last = (await events()).at(-1)!;
    expect(last.success).toBe(false);
    expect(last.message).toContain('insufficient_funds');
  });

  it('records any other flow without moving money', async () => {
    const count = await transactionCount(t);
    const res = await hook('level-up', { level: 3, note: 'gold' });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(await transactionCount(t)).toBe(count);
    expect((await events()).at(-1)).toMatchObject({ flow_id: 'level-up', success: true });
  });

  it.each([
    ['reward to a system wallet', 'reward', () => ({ to: e.system.id, amount: 1 })],
    ['reward without amount', 'reward', () => ({ to: e.customers[0].id })],
    ['reward with both amounts', 'reward', () => ({ to: e.customers[0].id, amount: 1, fiatAmount: 1 })],
    ['redeem with an unknown value', 'redeem', () => ({ from: e.customers[0].id, amount: 1, memo: 'x' })],
  ])('refuses %s with 400', async (_name, flow, values) => {
    const res = await hook(flow, values());
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
  });

  it('validates the envelope and answers another owner’s project with 404', async () => {
    expect((await t.request('POST', '/webhook', { key: e.key, body: { flowId: '', projectId: e.projectId, values: {} } })).status).toBe(400);
    expect((await t.request('POST', '/webhook', { key: e.key, body: { flowId: 'x', projectId: e.projectId, values: [] } })).status).toBe(400);
    const stranger = await t.issueKey('hook-stranger');
    expect((await hook('reward', { to: e.customers[0].id, amount: 1 }, stranger)).status).toBe(404);
  });
});

describe('POST /webhook once the posting is durable', () => {
  it('answers 200 although the event cannot be recorded, and the money moves exactly once', async () => {
    // Recording fails for this call only: a constraint the event of a 7.77 reward cannot meet.
    await t.db.query(`ALTER TABLE webhook_events ADD CONSTRAINT test_refuse_7_77 CHECK (("values"->>'amount') IS DISTINCT FROM '7.77')`);
    try {
      const before = { balances: await minorBalances(t, e.projectId), count: await transactionCount(t), events: (await events()).length };
      const res = await hook('reward', { to: e.customers[0].id, amount: 7.77 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: expect.stringContaining('7.77') });
      const after = await minorBalances(t, e.projectId);
      expect(after.get(e.customers[0].id)! - before.balances.get(e.customers[0].id)!).toBe(777n);
      expect(after.get(e.system.id)! - before.balances.get(e.system.id)!).toBe(-777n);
      expect(await transactionCount(t)).toBe(before.count + 1);
      expect((await events()).length).toBe(before.events); // the lost event, and nothing else

      // a flow that posts nothing has had no effect at all when its record fails: its error stands
      const noted = await hook('note', { amount: 7.77 });
      expect(noted.status).toBe(500);
      expect(await transactionCount(t)).toBe(before.count + 1);
    } finally {
      await t.db.query(`ALTER TABLE webhook_events DROP CONSTRAINT test_refuse_7_77`);
    }
  });
});

describe('POST /webhook amounts the double would alter', () => {
  const rawHook = (x: Economy, flowId: string, values: Record<string, unknown>, field: string, text: string) =>
    t.request('POST', '/webhook', {
      key: x.key,
      raw: JSON.stringify({ flowId, projectId: x.projectId, values: { ...values, [field]: '@N@' } }).replace('"@N@"', text),
    });

  it('rewards amount and fiatAmount 82241598.62827704 (8 fractions) to the last digit, and stores the value as sent', async () => {
    const x = await economy(t, 'hook-exact', { fractions: 8, customers: 1, seed: 0, exchangeRate: 1 });
    const seed = JSON.stringify({ currency: 'PTS', projectId: x.projectId, to: x.system.id, amount: '@N@' }).replace('"@N@"', '82241598.62827704');
    for (let i = 0; i < 2; i++) expect((await t.request('POST', '/transactions/seed', { key: x.key, raw: seed })).status).toBe(201);
    expect((await minorBalances(t, x.projectId)).get(x.system.id)).toBe(16448319725655408n);

    expect((await rawHook(x, 'reward', { to: x.customers[0].id }, 'amount', '82241598.62827704')).status).toBe(200);
    expect((await minorBalances(t, x.projectId)).get(x.customers[0].id)).toBe(8224159862827704n);
    expect((await rawHook(x, 'reward', { to: x.customers[0].id }, 'fiatAmount', '82241598.62827704')).status).toBe(200);
    const balances = await minorBalances(t, x.projectId);
    expect(balances.get(x.customers[0].id)).toBe(16448319725655408n);
    expect(balances.get(x.system.id)).toBe(0n);

    const stored = await t.db.query<{ amount: string | null; fiat: string | null }>(
      `SELECT ("values"->'amount')::text AS amount, ("values"->'fiatAmount')::text AS fiat FROM webhook_events WHERE project_id = $1 ORDER BY seq`,
      [x.projectId],
    );
    expect(stored).toEqual([
      { amount: '82241598.62827704', fiat: null },
      { amount: null, fiat: '82241598.62827704' },
    ]);
  });

  it('refuses an exact amount out of range with 400 naming it, and a number no double holds anywhere in values', async () => {
    const count = await transactionCount(t);
    const negative = await rawHook(e, 'reward', { to: e.customers[0].id }, 'amount', '-82241598.62827704');
    expect(negative.status).toBe(400);
    expect(JSON.stringify(negative.body.details)).toContain('values.amount');
    const huge = await rawHook(e, 'level-up', {}, 'score', '1e999999');
    expect(huge.status).toBe(400);
    expect(huge.body.details).toMatchObject({ field: 'values.score' });
    expect(await transactionCount(t)).toBe(count);
  });
});
