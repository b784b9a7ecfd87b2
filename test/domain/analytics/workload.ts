import type { HttpResult, TestApp } from '../../support/test-app.js';
import { expectStatus, fundedProject, type FundedProject } from '../../support/fixtures.js';

/** A small deterministic generator (mulberry32): the same seed, the same workload. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A loyalty program: PTS (2 fractions, points expire after an hour) and GEM (no expiry), one system wallet, `customers` customers. */
export async function program(t: TestApp, key: string, customers = 6): Promise<FundedProject & { second: string }> {
  const p = await fundedProject(t, key, { name: 'Program', symbol: 'PTS', fractions: 2, customers, systemBalance: '100000' });
  await expectStatus(t.request('PUT', `/assets/${p.assetId}`, { key, body: { expiresAfterSeconds: 3600 } }), 200);
  await expectStatus(t.request('POST', '/assets', { key, body: { name: 'Gems', symbol: 'GEM', fractions: 0, projectId: p.projectId } }), 201);
  await expectStatus(t.request('POST', '/transactions/seed', { key, body: { amount: 5000, currency: 'GEM', to: p.system.id, projectId: p.projectId } }), 201);
  return { ...p, second: 'GEM' };
}

/**
 * One round of random activity on the program: issues, redemptions, transfers between
 * customers, batches, holds captured (partly) or voided, reversals of earlier postings and lot
 * expiries (lots moved due by SQL, then one sweep). Refusals (409: funds, caps) are part of it.
 */
export async function activity(t: TestApp, p: FundedProject, next: () => number, steps: number): Promise<void> {
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)];
  const amount = (share = 1) => Math.max(1, Math.floor((next() * 4000) / share)) / 100;
  const currency = () => (next() < 0.75 ? 'PTS' : 'GEM');
  const whole = (c: string, a: number) => (c === 'GEM' ? Math.max(1, Math.round(a)) : a);
  const post = (path: string, body: Record<string, unknown>): Promise<HttpResult> => t.request('POST', path, { key: p.key, body: { projectId: p.projectId, ...body } });
  const accept = async (request: Promise<HttpResult>): Promise<HttpResult> => {
    const res = await request;
    if (![200, 201, 409].includes(res.status)) throw new Error(`unexpected ${res.status}: ${JSON.stringify(res.body)}`);
    return res;
  };
  const customer = () => pick(p.customers).id;
  for (let i = 0; i < steps; i++) {
    const c = currency();
    const roll = next();
    if (roll < 0.3) await accept(post('/transactions', { amount: whole(c, amount()), currency: c, from: p.system.id, to: customer() }));
    else if (roll < 0.42) await accept(post('/transactions', { amount: whole(c, amount(4)), currency: c, from: customer(), to: p.system.id }));
    else if (roll < 0.54) {
      const [from, to] = [customer(), customer()];
      if (from !== to) await accept(post('/transactions', { amount: whole(c, amount(4)), currency: c, from, to }));
    } else if (roll < 0.64) {
      const legs = [{ from: p.system.id, to: customer() }, { from: p.system.id, to: customer() }, { from: customer(), to: p.system.id }];
      await accept(post('/transactions/batch', { transfers: legs.map((leg) => ({ ...leg, amount: whole(c, amount(8)), currency: c })) }));
    } else if (roll < 0.76) {
      const from = customer();
      const to = next() < 0.5 ? p.system.id : customer();
      const hold = from === to ? null : await accept(post('/holds', { amount: whole(c, amount(8)), currency: c, from, to }));
      if (hold?.status === 201) {
        const id = hold.body.hold.id;
        if (next() < 0.6) await accept(post(`/holds/${id}/capture`, c === 'GEM' ? {} : { amount: Math.max(0.01, Math.floor(hold.body.hold.amount * 50) / 100) }));
        else await accept(post(`/holds/${id}/void`, {}));
      }
    } else if (roll < 0.88) {
      const [row] = await t.db.query<{ id: string }>(
        `SELECT id FROM transactions WHERE project_id = $1 AND kind IN ('transfer', 'capture', 'seed') AND reversed_amount < amount ORDER BY seq DESC OFFSET $2 LIMIT 1`,
        [p.projectId, Math.floor(next() * 10)],
      );
      if (row) await accept(post(`/transactions/${row.id}/reverse`, next() < 0.5 ? {} : { amount: 1 }));
    } else {
      await t.db.query(`UPDATE lots SET expires_at = clock_timestamp()::timestamptz(3) WHERE wallet_id = $1 AND live`, [customer()]);
      await t.app.services.expirySweeper.sweepOnce();
    }
  }
}
