import { startTestApp, type TestApp } from '../support/test-app.js';
import { fundedProject, minorBalances, transactionCount, type FundedProject } from '../support/fixtures.js';

let t: TestApp;
let e: FundedProject;
beforeAll(async () => {
  t = await startTestApp();
  e = await fundedProject(t, { owner: 'hook-owner' }, { customers: 2, systemBalance: 1000, fund: 10, exchangeRate: 1.5 });
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
    const plain = await fundedProject(t, { owner: 'hook-plain' }, { customers: 1, systemBalance: 10 });
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

describe('POST /webhook: the stored call commits with its posting (CONTRACT §16)', () => {
  /** Makes storing any new call whose values carry `amount` 7.77 fail (rows already stored are not checked), for the duration of `run`. */
  async function withUnstorable777<T>(run: () => Promise<T>): Promise<T> {
    await t.db.query(`ALTER TABLE webhook_events ADD CONSTRAINT test_refuse_7_77 CHECK (("values"->>'amount') IS DISTINCT FROM '7.77') NOT VALID`);
    try {
      return await run();
    } finally {
      await t.db.query(`ALTER TABLE webhook_events DROP CONSTRAINT test_refuse_7_77`);
    }
  }
  const snapshot = async () => ({ balances: await minorBalances(t, e.projectId), transactions: await transactionCount(t), events: (await events()).length });

  it("writes a flow's call in its posting's own database transaction", async () => {
    const res = await hook('reward', { to: e.customers[1].id, amount: 1.25 });
    expect(res.status).toBe(200);
    const [row] = await t.db.query<{ same: boolean; message: string }>(
      `SELECT e.xmin::text = t.xmin::text AS same, e.message FROM webhook_events e JOIN transactions t ON t.id = e.transaction_id
        WHERE e.project_id = $1 ORDER BY e.seq DESC LIMIT 1`,
      [e.projectId],
    );
    expect(row).toEqual({ same: true, message: res.body.message });
  });

  it('posts nothing and answers no 2xx when the call cannot be stored', async () => {
    await withUnstorable777(async () => {
      const before = await snapshot();
      const res = await hook('reward', { to: e.customers[0].id, amount: 7.77 });
      expect([res.status, res.body.code]).toEqual([500, 'internal_error']);
      expect(await snapshot()).toEqual(before); // balances, transaction rows and events unchanged

      // a flow that posts nothing has had no effect either
      const noted = await hook('note', { amount: 7.77 });
      expect(noted.status).toBe(500);
      expect(await snapshot()).toEqual(before);
    });
    // the same call, once it can be stored, posts and is stored
    expect((await hook('reward', { to: e.customers[0].id, amount: 7.77 })).status).toBe(200);
  });

  it('among concurrent rewards from the same system wallet, a call that cannot be stored fails alone', async () => {
    await withUnstorable777(async () => {
      const before = await snapshot();
      const amounts = [1, 2, 3, 7.77, 4, 5, 6, 0.5, 0.25, 1.5, 2.5, 3.5];
      const replies = await Promise.all(amounts.map((amount, i) => hook('reward', { to: e.customers[i % 2].id, amount })));
      expect(replies.map((r) => r.status)).toEqual(amounts.map((a) => (a === 7.77 ? 500 : 200)));
      const posted = amounts.filter((a) => a !== 7.77);
      const after = await snapshot();
      expect(after.transactions).toBe(before.transactions + posted.length);
      expect(after.events).toBe(before.events + posted.length);
      const spent = posted.reduce((sum, a) => sum + BigInt(Math.round(a * 100)), 0n);
      expect(before.balances.get(e.system.id)! - after.balances.get(e.system.id)!).toBe(spent);
      // each posting has exactly its own call
      const rows = await t.db.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM webhook_events e JOIN transactions t ON t.id = e.transaction_id
          WHERE e.project_id = $1 AND e.xmin::text = t.xmin::text AND (e."values"->>'amount')::numeric * 100 = t.amount
          GROUP BY t.id HAVING count(*) <> 1`,
        [e.projectId],
      );
      expect(rows).toEqual([]);
    });
  });
});

describe('POST /webhook amounts the double would alter', () => {
  const rawHook = (x: FundedProject, flowId: string, values: Record<string, unknown>, field: string, text: string) =>
    t.request('POST', '/webhook', {
      key: x.key,
      raw: JSON.stringify({ flowId, projectId: x.projectId, values: { ...values, [field]: '@N@' } }).replace('"@N@"', text),
    });

  it('rewards amount and fiatAmount 82241598.62827704 (8 fractions) to the last digit, and stores the value as sent', async () => {
    const x = await fundedProject(t, { owner: 'hook-exact' }, { fractions: 8, customers: 1, systemBalance: 0, exchangeRate: 1 });
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
