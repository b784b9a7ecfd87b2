import { startTestApp, type TestApp } from '../../support/test-app.js';
import { fundedProject, type FundedProject } from '../../support/fixtures.js';

/** Races on holds and reversals: the posting routines' locks decide, exactly once. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const post = (e: FundedProject, path: string, body: Record<string, unknown>) => t.request('POST', path, { key: e.key, body: { projectId: e.projectId, ...body } });

async function heldAndBalance(walletId: string): Promise<{ amount: bigint; held: bigint }> {
  const [row] = await t.db.query<{ amount: string; held: string }>(`SELECT amount::text, held::text FROM balances WHERE wallet_id = $1`, [walletId]);
  return { amount: BigInt(row.amount), held: BigInt(row.held) };
}

describe('concurrency of holds and reversals', () => {
  it('20 concurrent captures of one hold: exactly one succeeds, the others are hold_not_pending', async () => {
    const e = await fundedProject(t, { owner: 'race-capture' }, { fund: 100 });
    const [a, b] = e.customers;
    const { body } = await post(e, '/holds', { amount: 40, currency: e.symbol, from: a.id, to: b.id });
    const results = await Promise.all(Array.from({ length: 20 }, () => post(e, `/holds/${body.hold.id}/capture`, {})));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(Array(19).fill('hold_not_pending'));
    expect(await heldAndBalance(a.id)).toEqual({ amount: 6000n, held: 0n });
    const [n] = await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM transactions WHERE hold_id = $1`, [body.hold.id]);
    expect(n.n).toBe('1');
  });

  it('30 concurrent holds of 10 on an available 100: exactly 10 succeed', async () => {
    const e = await fundedProject(t, { owner: 'race-holds' }, { fund: 100 });
    const [a, b] = e.customers;
    const results = await Promise.all(Array.from({ length: 30 }, () => post(e, '/holds', { amount: 10, currency: e.symbol, from: a.id, to: b.id })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'insufficient_funds')).toBe(true);
    expect(await heldAndBalance(a.id)).toEqual({ amount: 10000n, held: 10000n });
    const res = await t.request('GET', `/transactions?walletId=${a.id}`, { key: e.key });
    expect(res.body.balance).toMatchObject({ balance: 100, held: 100, available: 0 });
  });

  it('a capture racing a void: exactly one wins', async () => {
    const e = await fundedProject(t, { owner: 'race-settle' }, { fund: 100 });
    const [a, b] = e.customers;
    for (let round = 0; round < 10; round++) {
      const { body } = await post(e, '/holds', { amount: 5, currency: e.symbol, from: a.id, to: b.id });
      const [captured, voided] = await Promise.all([post(e, `/holds/${body.hold.id}/capture`, {}), post(e, `/holds/${body.hold.id}/void`, {})]);
      expect((captured.status === 201 ? 1 : 0) + (voided.status === 200 ? 1 : 0)).toBe(1);
      const loser = captured.status === 201 ? voided : captured;
      expect(loser.body.code).toBe('hold_not_pending');
    }
    expect((await heldAndBalance(a.id)).held).toBe(0n);
  });

  it('concurrent reversals never exceed the original', async () => {
    const e = await fundedProject(t, { owner: 'race-reverse' }, { fund: 100 });
    const [a, b] = e.customers;
    const { body } = await post(e, '/transactions', { amount: 30, currency: e.symbol, from: a.id, to: b.id });
    const results = await Promise.all(Array.from({ length: 20 }, () => post(e, `/transactions/${body.transaction.id}/reverse`, { amount: 4 })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(7);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'conflict' && r.body.details.reversible === 2)).toBe(true);
    const [row] = await t.db.query<{ reversed: string }>(`SELECT reversed_amount::text AS reversed FROM transactions WHERE id = $1`, [body.transaction.id]);
    expect(row.reversed).toBe('2800');
    const [sum] = await t.db.query<{ s: string }>(`SELECT sum(amount)::text AS s FROM transactions WHERE reverses = $1`, [body.transaction.id]);
    expect(sum.s).toBe('2800');
  });
});
